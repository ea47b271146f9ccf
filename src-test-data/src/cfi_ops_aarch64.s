// AArch64 call frame information (src-test-data/regenerate-cfi.sh): DW_CFA_AARCH64_negate_ra_state
// with remember/restore_state, the 'B' (B key) and 'G' (MTE) augmentations,
// negate_ra_state_with_pc, val_offset and val_expression.
	.text
	.globl	_start
	.p2align 2
	.type	_start,@function
_start:
	.cfi_startproc
	paciasp
	.cfi_negate_ra_state
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset w30, -8
	.cfi_offset w29, -16
	mov	x29, sp
	.cfi_def_cfa w29, 16
	.cfi_remember_state
	ldp	x29, x30, [sp], #16
	.cfi_def_cfa wsp, 0
	.cfi_restore w30
	.cfi_restore w29
	autiasp
	.cfi_negate_ra_state
	ret
	.cfi_restore_state
	nop
	.cfi_window_save
	nop
	.cfi_endproc
	.size	_start, .-_start

	.globl	b_key
	.p2align 2
	.type	b_key,@function
b_key:
	.cfi_startproc
	.cfi_b_key_frame
	pacibsp
	.cfi_negate_ra_state
	str	x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset w30, -16
	ldr	x30, [sp], #16
	.cfi_def_cfa_offset 0
	autibsp
	.cfi_negate_ra_state
	ret
	.cfi_endproc
	.size	b_key, .-b_key

	.globl	mte_tagged
	.p2align 2
	.type	mte_tagged,@function
mte_tagged:
	.cfi_startproc
	.cfi_mte_tagged_frame
	sub	sp, sp, #32
	.cfi_def_cfa_offset 32
	add	sp, sp, #32
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	mte_tagged, .-mte_tagged

	.globl	with_pc
	.p2align 2
	.type	with_pc,@function
with_pc:
	.cfi_startproc
	.cfi_escape 0x2c                      // DW_CFA_AARCH64_negate_ra_state_with_pc
	nop
	.cfi_val_offset w19, -8
	nop
	.cfi_escape 0x16, 0x14, 0x02, 0x8f, 0x10   // val_expression x20: breg31 +16
	ret
	.cfi_endproc
	.size	with_pc, .-with_pc
