# Hand-written i386 functions for the compact unwind tests (regenerate-unwind.sh). ld64.lld links
# no i386, so only the object is built: its __compact_unwind encodings and, with
# -femit-dwarf-unwind=always, the DWARF FDEs the tests compare the rows with.
	.section	__TEXT,__text,regular,pure_instructions
	.globl	_ebp_three
	.p2align	4
_ebp_three:                        # EBP_FRAME, edi esi ebx below the saved ebp
	.cfi_startproc
	pushl	%ebp
	.cfi_def_cfa_offset 8
	.cfi_offset %ebp, -8
	movl	%esp, %ebp
	.cfi_def_cfa_register %ebp
	pushl	%edi
	pushl	%esi
	pushl	%ebx
	.cfi_offset %ebx, -20
	.cfi_offset %esi, -16
	.cfi_offset %edi, -12
	popl	%ebx
	popl	%esi
	popl	%edi
	popl	%ebp
	retl
	.cfi_endproc

	.globl	_frameless_small
	.p2align	4
_frameless_small:                  # STACK_IMMD, 32 bytes, esi and ebx pushed
	.cfi_startproc
	pushl	%esi
	.cfi_def_cfa_offset 8
	pushl	%ebx
	.cfi_def_cfa_offset 12
	subl	$20, %esp
	.cfi_def_cfa_offset 32
	.cfi_offset %ebx, -12
	.cfi_offset %esi, -8
	addl	$20, %esp
	popl	%ebx
	popl	%esi
	retl
	.cfi_endproc

	.globl	_frameless_large
	.p2align	4
_frameless_large:                  # STACK_IND: the size is the immediate of the subl
	.cfi_startproc
	pushl	%ebp
	.cfi_def_cfa_offset 8
	pushl	%edi
	.cfi_def_cfa_offset 12
	subl	$40000, %esp
	.cfi_def_cfa_offset 40012
	.cfi_offset %edi, -12
	.cfi_offset %ebp, -8
	addl	$40000, %esp
	popl	%edi
	popl	%ebp
	retl
	.cfi_endproc
.subsections_via_symbols
