# A function Mach-O compact unwind cannot describe (its CFA moves to r12), so ld64.lld keeps its
# __eh_frame FDE. src-test-data/regenerate-cfi.sh.
	.text
	.globl	_odd
	.p2align 4
_odd:
	.cfi_startproc
	pushq	%r12
	.cfi_def_cfa_offset 16
	.cfi_offset %r12, -16
	movq	%rsp, %r12
	.cfi_def_cfa_register %r12
	subq	$32, %rsp
	addq	$32, %rsp
	popq	%r12
	.cfi_def_cfa %rsp, 8
	retq
	.cfi_endproc
