// A function Mach-O compact unwind cannot describe (its CFA moves to x19), so ld64.lld keeps its
// __eh_frame FDE. src-test-data/regenerate-cfi.sh.
	.text
	.globl	_odd
	.p2align 2
_odd:
	.cfi_startproc
	stp	x19, x30, [sp, #-32]!
	.cfi_def_cfa_offset 32
	.cfi_offset w30, -24
	.cfi_offset w19, -32
	mov x19, sp
	.cfi_def_cfa w19, 32
	ldp	x19, x30, [sp], #32
	.cfi_def_cfa sp, 0
	ret
	.cfi_endproc
