// Hand-written arm64 functions for the compact unwind tests (regenerate-unwind.sh): the CFI
// directives say what each frame looks like, MC turns them into compact unwind encodings (and,
// with -femit-dwarf-unwind=always, into DWARF FDEs the tests compare the rows with).
	.section	__TEXT,__text,regular,pure_instructions
	.globl	_asm_entry
	.p2align	2
_asm_entry:                        // FRAME, no saved pairs
	.cfi_startproc
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	mov	x29, sp
	.cfi_def_cfa w29, 16
	.cfi_offset w30, -8
	.cfi_offset w29, -16
	bl	_frame_all
	bl	_frame_some
	bl	_no_cfi_leaf
	bl	_frameless_stack
	bl	_frameless_pairs
	bl	_dwarf_single
	bl	_with_lsda
	ldp	x29, x30, [sp], #16
	ret
	.cfi_endproc

	.globl	_frame_all
	.p2align	2
_frame_all:                        // FRAME with all five X pairs and all four D pairs
	.cfi_startproc
	stp	d15, d14, [sp, #-160]!
	stp	d13, d12, [sp, #16]
	stp	d11, d10, [sp, #32]
	stp	d9, d8, [sp, #48]
	stp	x28, x27, [sp, #64]
	stp	x26, x25, [sp, #80]
	stp	x24, x23, [sp, #96]
	stp	x22, x21, [sp, #112]
	stp	x20, x19, [sp, #128]
	stp	x29, x30, [sp, #144]
	add	x29, sp, #144
	.cfi_def_cfa w29, 16
	.cfi_offset w30, -8
	.cfi_offset w29, -16
	.cfi_offset w19, -24
	.cfi_offset w20, -32
	.cfi_offset w21, -40
	.cfi_offset w22, -48
	.cfi_offset w23, -56
	.cfi_offset w24, -64
	.cfi_offset w25, -72
	.cfi_offset w26, -80
	.cfi_offset w27, -88
	.cfi_offset w28, -96
	.cfi_offset b8, -104
	.cfi_offset b9, -112
	.cfi_offset b10, -120
	.cfi_offset b11, -128
	.cfi_offset b12, -136
	.cfi_offset b13, -144
	.cfi_offset b14, -152
	.cfi_offset b15, -160
	ldp	x29, x30, [sp, #144]
	ldp	x20, x19, [sp, #128]
	ldp	x22, x21, [sp, #112]
	ldp	x24, x23, [sp, #96]
	ldp	x26, x25, [sp, #80]
	ldp	x28, x27, [sp, #64]
	ldp	d9, d8, [sp, #48]
	ldp	d11, d10, [sp, #32]
	ldp	d13, d12, [sp, #16]
	ldp	d15, d14, [sp], #160
	ret
	.cfi_endproc

	.globl	_frame_some
	.p2align	2
_frame_some:                       // FRAME with x21/x22 and d8/d9 (the pairs in between skipped)
	.cfi_startproc
	stp	d9, d8, [sp, #-48]!
	stp	x22, x21, [sp, #16]
	stp	x29, x30, [sp, #32]
	add	x29, sp, #32
	.cfi_def_cfa w29, 16
	.cfi_offset w30, -8
	.cfi_offset w29, -16
	.cfi_offset w21, -24
	.cfi_offset w22, -32
	.cfi_offset b8, -40
	.cfi_offset b9, -48
	ldp	x29, x30, [sp, #32]
	ldp	x22, x21, [sp, #16]
	ldp	d9, d8, [sp], #48
	ret
	.cfi_endproc

	.globl	_no_cfi_leaf
	.p2align	2
_no_cfi_leaf:                      // FRAMELESS, no stack: the return address stays in lr
	.cfi_startproc
	mov	w0, #1
	ret
	.cfi_endproc

	.globl	_frameless_stack
	.p2align	2
_frameless_stack:                  // FRAMELESS with 4080 bytes of stack
	.cfi_startproc
	sub	sp, sp, #4080
	.cfi_def_cfa_offset 4080
	add	sp, sp, #4080
	ret
	.cfi_endproc

	.globl	_frameless_pairs
	.p2align	2
_frameless_pairs:                  // FRAMELESS with x19/x20 and x21/x22 at the top of its 48 bytes
	.cfi_startproc
	sub	sp, sp, #48
	.cfi_def_cfa_offset 48
	stp	x20, x19, [sp, #32]
	stp	x22, x21, [sp, #16]
	.cfi_offset w19, -8
	.cfi_offset w20, -16
	.cfi_offset w21, -24
	.cfi_offset w22, -32
	ldp	x22, x21, [sp, #16]
	ldp	x20, x19, [sp, #32]
	add	sp, sp, #48
	ret
	.cfi_endproc

	.globl	_dwarf_single
	.p2align	2
_dwarf_single:                     // one register saved alone: no compact encoding, DWARF
	.cfi_startproc
	str	x19, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset w19, -16
	ldr	x19, [sp], #16
	ret
	.cfi_endproc

	.globl	_with_lsda
	.p2align	2
_with_lsda:                        // a personality and an LSDA
	.cfi_startproc
	.cfi_personality 155, ___gxx_personality_v0
	.cfi_lsda 16, Lexception0
	stp	x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	mov	x29, sp
	.cfi_def_cfa w29, 16
	.cfi_offset w30, -8
	.cfi_offset w29, -16
	ldp	x29, x30, [sp], #16
	ret
	.cfi_endproc

	.globl	___gxx_personality_v0
	.p2align	2
___gxx_personality_v0:             // no unwind information at all
	mov	w0, #0
	ret

	.section	__TEXT,__gcc_except_tab
Lexception0:
	.byte	255
	.byte	255
	.byte	1
	.uleb128 0
.subsections_via_symbols
