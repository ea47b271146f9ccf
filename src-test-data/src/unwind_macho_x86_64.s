# Hand-written x86_64 functions for the compact unwind tests (regenerate-unwind.sh): the CFI
# directives say what each frame looks like, MC turns them into compact unwind encodings (and,
# with -femit-dwarf-unwind=always, into DWARF FDEs the tests compare the rows with).
	.section	__TEXT,__text,regular,pure_instructions
	.globl	_asm_entry
	.p2align	4
_asm_entry:                        # RBP_FRAME, no saved registers
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	callq	_rbp_five
	callq	_rbp_two
	callq	_frameless_small
	callq	_frameless_six
	callq	_frameless_large
	callq	_frameless_large_noregs
	callq	_dwarf_realign
	callq	_no_cfi_leaf
	callq	_with_lsda
	popq	%rbp
	retq
	.cfi_endproc

	.globl	_rbp_five
	.p2align	4
_rbp_five:                         # RBP_FRAME, rbx r12 r13 r14 r15 below the saved rbp
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%r15
	pushq	%r14
	pushq	%r13
	pushq	%r12
	pushq	%rbx
	.cfi_offset %rbx, -56
	.cfi_offset %r12, -48
	.cfi_offset %r13, -40
	.cfi_offset %r14, -32
	.cfi_offset %r15, -24
	subq	$24, %rsp
	addq	$24, %rsp
	popq	%rbx
	popq	%r12
	popq	%r13
	popq	%r14
	popq	%r15
	popq	%rbp
	retq
	.cfi_endproc

	.globl	_rbp_two
	.p2align	4
_rbp_two:                          # RBP_FRAME, r14 and rbx (not in register order)
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rbx
	pushq	%r14
	.cfi_offset %r14, -32
	.cfi_offset %rbx, -24
	popq	%r14
	popq	%rbx
	popq	%rbp
	retq
	.cfi_endproc

	.globl	_frameless_small
	.p2align	4
_frameless_small:                  # STACK_IMMD, 64 bytes, rbx and r14 pushed
	.cfi_startproc
	pushq	%r14
	.cfi_def_cfa_offset 16
	pushq	%rbx
	.cfi_def_cfa_offset 24
	subq	$40, %rsp
	.cfi_def_cfa_offset 64
	.cfi_offset %rbx, -24
	.cfi_offset %r14, -16
	addq	$40, %rsp
	popq	%rbx
	popq	%r14
	retq
	.cfi_endproc

	.globl	_frameless_six
	.p2align	4
_frameless_six:                    # STACK_IMMD, all six registers in a scrambled order
	.cfi_startproc
	pushq	%r13
	.cfi_def_cfa_offset 16
	pushq	%rbp
	.cfi_def_cfa_offset 24
	pushq	%r15
	.cfi_def_cfa_offset 32
	pushq	%rbx
	.cfi_def_cfa_offset 40
	pushq	%r12
	.cfi_def_cfa_offset 48
	pushq	%r14
	.cfi_def_cfa_offset 56
	subq	$8, %rsp
	.cfi_def_cfa_offset 64
	.cfi_offset %r14, -56
	.cfi_offset %r12, -48
	.cfi_offset %rbx, -40
	.cfi_offset %r15, -32
	.cfi_offset %rbp, -24
	.cfi_offset %r13, -16
	addq	$8, %rsp
	popq	%r14
	popq	%r12
	popq	%rbx
	popq	%r15
	popq	%rbp
	popq	%r13
	retq
	.cfi_endproc

	.globl	_frameless_large
	.p2align	4
_frameless_large:                  # STACK_IND: the size is the immediate of the subq
	.cfi_startproc
	pushq	%r15
	.cfi_def_cfa_offset 16
	pushq	%r12
	.cfi_def_cfa_offset 24
	pushq	%rbx
	.cfi_def_cfa_offset 32
	subq	$74560, %rsp
	.cfi_def_cfa_offset 74592
	.cfi_offset %rbx, -32
	.cfi_offset %r12, -24
	.cfi_offset %r15, -16
	addq	$74560, %rsp
	popq	%rbx
	popq	%r12
	popq	%r15
	retq
	.cfi_endproc

	.globl	_frameless_large_noregs
	.p2align	4
_frameless_large_noregs:           # STACK_IND without pushes: the subq is the first instruction
	.cfi_startproc
	subq	$4104, %rsp
	.cfi_def_cfa_offset 4112
	addq	$4104, %rsp
	retq
	.cfi_endproc

	.globl	_dwarf_realign
	.p2align	4
_dwarf_realign:                    # CFA in rbx: no compact encoding, the linker points at the FDE
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movq	%rsp, %rbx
	.cfi_def_cfa_register %rbx
	andq	$-32, %rsp
	movq	%rbx, %rsp
	popq	%rbx
	retq
	.cfi_endproc

	.globl	_no_cfi_leaf
	.p2align	4
_no_cfi_leaf:                      # no CFI instructions: encoding 0 from MC, the CIE's rules in DWARF
	.cfi_startproc
	movl	$1, %eax
	retq
	.cfi_endproc

	.globl	_with_lsda
	.p2align	4
_with_lsda:                        # a personality and an LSDA
	.cfi_startproc
	.cfi_personality 155, ___gxx_personality_v0
	.cfi_lsda 16, Lexception0
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	popq	%rbp
	retq
	.cfi_endproc

	.globl	___gxx_personality_v0
	.p2align	4
___gxx_personality_v0:             # no unwind information at all
	xorl	%eax, %eax
	retq

	.section	__TEXT,__gcc_except_tab
Lexception0:
	.byte	255
	.byte	255
	.byte	1
	.uleb128 0
.subsections_via_symbols
