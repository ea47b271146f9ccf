# The DW_CFA instructions llvm-dwarfdump-22 decodes (x86-64), in .eh_frame and .debug_frame: nested
# remember/restore_state, restore, register, undefined, same_value, offset and def_cfa forms,
# expressions, val_offset, GNU_args_size, advance_loc1/2/4; augmentations S, P, L.
# Built by src-test-data/regenerate-cfi.sh.
	.cfi_sections .eh_frame, .debug_frame
	.text
	.globl	_start
	.p2align 4
	.type	_start,@function
_start:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rbx
	.cfi_rel_offset %rbx, -16
	.cfi_remember_state
	popq	%rbx
	.cfi_restore %rbx
	.cfi_remember_state
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_same_value %rbp
	ret
	.cfi_restore_state
	nop
	.cfi_restore_state
	nop
	.cfi_register %rip, %r11
	nop
	.cfi_undefined %rip
	ud2
	.cfi_endproc
	.size	_start, .-_start

# escapes: expressions, val_offset(_sf), offset_extended(_sf), def_cfa_sf, def_cfa_offset_sf,
# restore_extended, GNU_args_size
	.globl	escapes
	.p2align 4
	.type	escapes,@function
escapes:
	.cfi_startproc
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	.cfi_escape 0x05, 0x0c, 0x02              # offset_extended r12, 2 * -8
	nop
	.cfi_escape 0x2e, 0x10                    # GNU_args_size 16
	nop
	.cfi_escape 0x14, 0x0d, 0x03              # val_offset r13, 3 * -8
	.cfi_escape 0x15, 0x0e, 0x7e              # val_offset_sf r14, -2 * -8
	.cfi_escape 0x11, 0x0f, 0x7d              # offset_extended_sf r15, -3 * -8
	nop
	.cfi_escape 0x12, 0x07, 0x7c              # def_cfa_sf rsp, -4 * -8 = 32
	.cfi_escape 0x13, 0x7e                    # def_cfa_offset_sf -2 * -8 = 16
	nop
	.cfi_escape 0x10, 0x03, 0x02, 0x77, 0x08  # expression rbx: DW_OP_breg7 +8
	.cfi_escape 0x16, 0x06, 0x03, 0x76, 0x10, 0x06  # val_expression rbp: breg6 +16, deref
	nop
	.cfi_escape 0x0f, 0x05, 0x77, 0x08, 0x06, 0x23, 0x08  # def_cfa_expression: breg7 +8, deref, plus_uconst 8
	nop
	.cfi_escape 0x06, 0x0c                    # restore_extended r12
	.cfi_escape 0x0c, 0x07, 0x08              # def_cfa rsp+8
	.cfi_escape 0x00                          # nop
	popq	%r12
	ret
	.cfi_endproc
	.size	escapes, .-escapes

# advance_loc1, advance_loc2, advance_loc4 (the assembler picks the smallest)
	.globl	long_function
	.p2align 4
	.type	long_function,@function
long_function:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	.skip	200, 0x90
	pushq	%rbp
	.cfi_def_cfa_offset 24
	.cfi_offset %rbp, -24
	.skip	70000, 0x90
	popq	%rbp
	.cfi_def_cfa_offset 16
	.skip	3000, 0x90
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	long_function, .-long_function

# augmentations S, P, L (personality and LSDA pointer encodings); a CIE without initial instructions
	.globl	signal_frame
	.p2align 4
	.type	signal_frame,@function
signal_frame:
	.cfi_startproc
	.cfi_signal_frame
	nop
	.cfi_def_cfa %rsp, 160
	ret
	.cfi_endproc
	.size	signal_frame, .-signal_frame

	.globl	personality_udata4
	.p2align 4
personality_udata4:
	.cfi_startproc
	.cfi_personality 0x03, personality_routine
	.cfi_lsda 0x1b, lsda_data
	pushq	%rax
	.cfi_def_cfa_offset 16
	popq	%rax
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc

	.globl	personality_indirect
	.p2align 4
personality_indirect:
	.cfi_startproc
	.cfi_personality 0x9b, personality_slot
	.cfi_lsda 0x04, lsda_data
	nop
	ret
	.cfi_endproc

	.globl	personality_sdata8
	.p2align 4
personality_sdata8:
	.cfi_startproc
	.cfi_personality 0x0c, personality_routine
	.cfi_lsda 0x02, lsda_small
	nop
	ret
	.cfi_endproc

	.globl	personality_absptr
	.p2align 4
personality_absptr:
	.cfi_startproc
	.cfi_personality 0x00, personality_routine
	.cfi_lsda 0x0a, lsda_small
	nop
	ret
	.cfi_endproc

	.globl	simple
	.p2align 4
simple:
	.cfi_startproc simple
	.cfi_def_cfa %rsp, 8
	.cfi_offset %rip, -8
	nop
	ret
	.cfi_endproc

	.globl	personality_routine
personality_routine:
	ret

	.section .rodata,"a",@progbits
	.p2align 3
personality_slot:
	.quad	personality_routine
lsda_data:
	.long	0
	.set lsda_small, 0x1234
