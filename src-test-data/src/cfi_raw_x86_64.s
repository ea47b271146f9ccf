# Hand-written .eh_frame: one CIE per FDE pointer encoding llvm-dwarfdump-22 and lld both read
# (absolute and pcrel; udata/sdata 2, 4 and 8 bytes; absptr), a version 3 CIE (ULEB return
# address register), and advance_loc1/2/4 written out. Built by src-test-data/regenerate-cfi.sh.
	.text
	.globl	_start
	.p2align 4
_start:
	ret
	.p2align 4
f_udata4:
	pushq	%rbp
	nop
	popq	%rbp
	ret
f_udata4_end:
	.p2align 4
f_sdata4:
	pushq	%rbp
	nop
	popq	%rbp
	ret
f_sdata4_end:
	.p2align 4
f_udata8:
	pushq	%rbp
	nop
	popq	%rbp
	ret
f_udata8_end:
	.p2align 4
f_sdata8:
	pushq	%rbp
	nop
	popq	%rbp
	ret
f_sdata8_end:
	.p2align 4
f_absptr:
	pushq	%rbp
	nop
	popq	%rbp
	ret
f_absptr_end:
	.p2align 4
f_pcrel_sdata8:
	pushq	%rbp
	nop
	popq	%rbp
	ret
f_pcrel_sdata8_end:
	.p2align 4
f_pcrel_udata2:
	pushq	%rbp
	nop
	popq	%rbp
	ret
f_pcrel_udata2_end:
	.p2align 4
f_pcrel_sdata2:
	pushq	%rbp
	nop
	popq	%rbp
	ret
f_pcrel_sdata2_end:
	.p2align 4
f_pcrel_udata4:
	pushq	%rbp
	nop
	popq	%rbp
	ret
f_pcrel_udata4_end:
	.section .eh_frame,"a",@progbits
# udata4: FDE pointer encoding 0x03
cie_udata4:
	.long	cie_udata4_end - cie_udata4_id
cie_udata4_id:
	.long	0
	.byte	3
	.asciz	"zR"
	.uleb128 1
	.sleb128 -8
	.uleb128 16
	.uleb128 1
	.byte	0x03
	.byte	0x0c, 0x07, 0x08            # DW_CFA_def_cfa rsp+8
	.byte	0x90, 0x01                  # DW_CFA_offset rip, 1 * -8
	.p2align 2, 0
cie_udata4_end:
fde_udata4:
	.long	fde_udata4_end - fde_udata4_id
fde_udata4_id:
	.long	fde_udata4_id - cie_udata4
	.long f_udata4
	.long f_udata4_end - f_udata4
	.uleb128 0
	.byte	0x41, 0x0e, 0x10            # DW_CFA_advance_loc 1; DW_CFA_def_cfa_offset 16
	.byte	0x86, 0x02                  # DW_CFA_offset rbp, 2 * -8
	.byte	0x02, 0x01, 0x0e, 0x10      # DW_CFA_advance_loc1 1; DW_CFA_def_cfa_offset 16
	.byte	0x03, 0x01, 0x00, 0x0e, 0x08, 0xc6   # DW_CFA_advance_loc2 1; def_cfa_offset 8; restore rbp
	.byte	0x04, 0x00, 0x00, 0x00, 0x00, 0x0e, 0x08   # DW_CFA_advance_loc4 0 (a zero advance)
	.p2align 2, 0
fde_udata4_end:
# sdata4: FDE pointer encoding 0x0b
cie_sdata4:
	.long	cie_sdata4_end - cie_sdata4_id
cie_sdata4_id:
	.long	0
	.byte	1
	.asciz	"zR"
	.uleb128 1
	.sleb128 -8
	.byte 16
	.uleb128 1
	.byte	0x0b
	.byte	0x0c, 0x07, 0x08            # DW_CFA_def_cfa rsp+8
	.byte	0x90, 0x01                  # DW_CFA_offset rip, 1 * -8
	.p2align 2, 0
cie_sdata4_end:
fde_sdata4:
	.long	fde_sdata4_end - fde_sdata4_id
fde_sdata4_id:
	.long	fde_sdata4_id - cie_sdata4
	.long f_sdata4
	.long f_sdata4_end - f_sdata4
	.uleb128 0
	.byte	0x41, 0x0e, 0x10            # DW_CFA_advance_loc 1; DW_CFA_def_cfa_offset 16
	.byte	0x86, 0x02                  # DW_CFA_offset rbp, 2 * -8
	.byte	0x02, 0x01, 0x0e, 0x10      # DW_CFA_advance_loc1 1; DW_CFA_def_cfa_offset 16
	.byte	0x03, 0x01, 0x00, 0x0e, 0x08, 0xc6   # DW_CFA_advance_loc2 1; def_cfa_offset 8; restore rbp
	.byte	0x04, 0x00, 0x00, 0x00, 0x00, 0x0e, 0x08   # DW_CFA_advance_loc4 0 (a zero advance)
	.p2align 2, 0
fde_sdata4_end:
# udata8: FDE pointer encoding 0x04
cie_udata8:
	.long	cie_udata8_end - cie_udata8_id
cie_udata8_id:
	.long	0
	.byte	1
	.asciz	"zR"
	.uleb128 1
	.sleb128 -8
	.byte 16
	.uleb128 1
	.byte	0x04
	.byte	0x0c, 0x07, 0x08            # DW_CFA_def_cfa rsp+8
	.byte	0x90, 0x01                  # DW_CFA_offset rip, 1 * -8
	.p2align 2, 0
cie_udata8_end:
fde_udata8:
	.long	fde_udata8_end - fde_udata8_id
fde_udata8_id:
	.long	fde_udata8_id - cie_udata8
	.quad f_udata8
	.quad f_udata8_end - f_udata8
	.uleb128 0
	.byte	0x41, 0x0e, 0x10            # DW_CFA_advance_loc 1; DW_CFA_def_cfa_offset 16
	.byte	0x86, 0x02                  # DW_CFA_offset rbp, 2 * -8
	.byte	0x02, 0x01, 0x0e, 0x10      # DW_CFA_advance_loc1 1; DW_CFA_def_cfa_offset 16
	.byte	0x03, 0x01, 0x00, 0x0e, 0x08, 0xc6   # DW_CFA_advance_loc2 1; def_cfa_offset 8; restore rbp
	.byte	0x04, 0x00, 0x00, 0x00, 0x00, 0x0e, 0x08   # DW_CFA_advance_loc4 0 (a zero advance)
	.p2align 2, 0
fde_udata8_end:
# sdata8: FDE pointer encoding 0x0c
cie_sdata8:
	.long	cie_sdata8_end - cie_sdata8_id
cie_sdata8_id:
	.long	0
	.byte	1
	.asciz	"zR"
	.uleb128 1
	.sleb128 -8
	.byte 16
	.uleb128 1
	.byte	0x0c
	.byte	0x0c, 0x07, 0x08            # DW_CFA_def_cfa rsp+8
	.byte	0x90, 0x01                  # DW_CFA_offset rip, 1 * -8
	.p2align 2, 0
cie_sdata8_end:
fde_sdata8:
	.long	fde_sdata8_end - fde_sdata8_id
fde_sdata8_id:
	.long	fde_sdata8_id - cie_sdata8
	.quad f_sdata8
	.quad f_sdata8_end - f_sdata8
	.uleb128 0
	.byte	0x41, 0x0e, 0x10            # DW_CFA_advance_loc 1; DW_CFA_def_cfa_offset 16
	.byte	0x86, 0x02                  # DW_CFA_offset rbp, 2 * -8
	.byte	0x02, 0x01, 0x0e, 0x10      # DW_CFA_advance_loc1 1; DW_CFA_def_cfa_offset 16
	.byte	0x03, 0x01, 0x00, 0x0e, 0x08, 0xc6   # DW_CFA_advance_loc2 1; def_cfa_offset 8; restore rbp
	.byte	0x04, 0x00, 0x00, 0x00, 0x00, 0x0e, 0x08   # DW_CFA_advance_loc4 0 (a zero advance)
	.p2align 2, 0
fde_sdata8_end:
# absptr: FDE pointer encoding 0x00
cie_absptr:
	.long	cie_absptr_end - cie_absptr_id
cie_absptr_id:
	.long	0
	.byte	1
	.asciz	"zR"
	.uleb128 1
	.sleb128 -8
	.byte 16
	.uleb128 1
	.byte	0x00
	.byte	0x0c, 0x07, 0x08            # DW_CFA_def_cfa rsp+8
	.byte	0x90, 0x01                  # DW_CFA_offset rip, 1 * -8
	.p2align 2, 0
cie_absptr_end:
fde_absptr:
	.long	fde_absptr_end - fde_absptr_id
fde_absptr_id:
	.long	fde_absptr_id - cie_absptr
	.quad f_absptr
	.quad f_absptr_end - f_absptr
	.uleb128 0
	.byte	0x41, 0x0e, 0x10            # DW_CFA_advance_loc 1; DW_CFA_def_cfa_offset 16
	.byte	0x86, 0x02                  # DW_CFA_offset rbp, 2 * -8
	.byte	0x02, 0x01, 0x0e, 0x10      # DW_CFA_advance_loc1 1; DW_CFA_def_cfa_offset 16
	.byte	0x03, 0x01, 0x00, 0x0e, 0x08, 0xc6   # DW_CFA_advance_loc2 1; def_cfa_offset 8; restore rbp
	.byte	0x04, 0x00, 0x00, 0x00, 0x00, 0x0e, 0x08   # DW_CFA_advance_loc4 0 (a zero advance)
	.p2align 2, 0
fde_absptr_end:
# pcrel_sdata8: FDE pointer encoding 0x1c
cie_pcrel_sdata8:
	.long	cie_pcrel_sdata8_end - cie_pcrel_sdata8_id
cie_pcrel_sdata8_id:
	.long	0
	.byte	1
	.asciz	"zR"
	.uleb128 1
	.sleb128 -8
	.byte 16
	.uleb128 1
	.byte	0x1c
	.byte	0x0c, 0x07, 0x08            # DW_CFA_def_cfa rsp+8
	.byte	0x90, 0x01                  # DW_CFA_offset rip, 1 * -8
	.p2align 2, 0
cie_pcrel_sdata8_end:
fde_pcrel_sdata8:
	.long	fde_pcrel_sdata8_end - fde_pcrel_sdata8_id
fde_pcrel_sdata8_id:
	.long	fde_pcrel_sdata8_id - cie_pcrel_sdata8
	.quad f_pcrel_sdata8 - .
	.quad f_pcrel_sdata8_end - f_pcrel_sdata8
	.uleb128 0
	.byte	0x41, 0x0e, 0x10            # DW_CFA_advance_loc 1; DW_CFA_def_cfa_offset 16
	.byte	0x86, 0x02                  # DW_CFA_offset rbp, 2 * -8
	.byte	0x02, 0x01, 0x0e, 0x10      # DW_CFA_advance_loc1 1; DW_CFA_def_cfa_offset 16
	.byte	0x03, 0x01, 0x00, 0x0e, 0x08, 0xc6   # DW_CFA_advance_loc2 1; def_cfa_offset 8; restore rbp
	.byte	0x04, 0x00, 0x00, 0x00, 0x00, 0x0e, 0x08   # DW_CFA_advance_loc4 0 (a zero advance)
	.p2align 2, 0
fde_pcrel_sdata8_end:
# pcrel_udata2: FDE pointer encoding 0x12
cie_pcrel_udata2:
	.long	cie_pcrel_udata2_end - cie_pcrel_udata2_id
cie_pcrel_udata2_id:
	.long	0
	.byte	1
	.asciz	"zR"
	.uleb128 1
	.sleb128 -8
	.byte 16
	.uleb128 1
	.byte	0x12
	.byte	0x0c, 0x07, 0x08            # DW_CFA_def_cfa rsp+8
	.byte	0x90, 0x01                  # DW_CFA_offset rip, 1 * -8
	.p2align 2, 0
cie_pcrel_udata2_end:
fde_pcrel_udata2:
	.long	fde_pcrel_udata2_end - fde_pcrel_udata2_id
fde_pcrel_udata2_id:
	.long	fde_pcrel_udata2_id - cie_pcrel_udata2
	.short f_pcrel_udata2 - .
	.short f_pcrel_udata2_end - f_pcrel_udata2
	.uleb128 0
	.byte	0x41, 0x0e, 0x10            # DW_CFA_advance_loc 1; DW_CFA_def_cfa_offset 16
	.byte	0x86, 0x02                  # DW_CFA_offset rbp, 2 * -8
	.byte	0x02, 0x01, 0x0e, 0x10      # DW_CFA_advance_loc1 1; DW_CFA_def_cfa_offset 16
	.byte	0x03, 0x01, 0x00, 0x0e, 0x08, 0xc6   # DW_CFA_advance_loc2 1; def_cfa_offset 8; restore rbp
	.byte	0x04, 0x00, 0x00, 0x00, 0x00, 0x0e, 0x08   # DW_CFA_advance_loc4 0 (a zero advance)
	.p2align 2, 0
fde_pcrel_udata2_end:
# pcrel_sdata2: FDE pointer encoding 0x1a
cie_pcrel_sdata2:
	.long	cie_pcrel_sdata2_end - cie_pcrel_sdata2_id
cie_pcrel_sdata2_id:
	.long	0
	.byte	1
	.asciz	"zR"
	.uleb128 1
	.sleb128 -8
	.byte 16
	.uleb128 1
	.byte	0x1a
	.byte	0x0c, 0x07, 0x08            # DW_CFA_def_cfa rsp+8
	.byte	0x90, 0x01                  # DW_CFA_offset rip, 1 * -8
	.p2align 2, 0
cie_pcrel_sdata2_end:
fde_pcrel_sdata2:
	.long	fde_pcrel_sdata2_end - fde_pcrel_sdata2_id
fde_pcrel_sdata2_id:
	.long	fde_pcrel_sdata2_id - cie_pcrel_sdata2
	.short f_pcrel_sdata2 - .
	.short f_pcrel_sdata2_end - f_pcrel_sdata2
	.uleb128 0
	.byte	0x41, 0x0e, 0x10            # DW_CFA_advance_loc 1; DW_CFA_def_cfa_offset 16
	.byte	0x86, 0x02                  # DW_CFA_offset rbp, 2 * -8
	.byte	0x02, 0x01, 0x0e, 0x10      # DW_CFA_advance_loc1 1; DW_CFA_def_cfa_offset 16
	.byte	0x03, 0x01, 0x00, 0x0e, 0x08, 0xc6   # DW_CFA_advance_loc2 1; def_cfa_offset 8; restore rbp
	.byte	0x04, 0x00, 0x00, 0x00, 0x00, 0x0e, 0x08   # DW_CFA_advance_loc4 0 (a zero advance)
	.p2align 2, 0
fde_pcrel_sdata2_end:
# pcrel_udata4: FDE pointer encoding 0x13
cie_pcrel_udata4:
	.long	cie_pcrel_udata4_end - cie_pcrel_udata4_id
cie_pcrel_udata4_id:
	.long	0
	.byte	1
	.asciz	"zR"
	.uleb128 1
	.sleb128 -8
	.byte 16
	.uleb128 1
	.byte	0x13
	.byte	0x0c, 0x07, 0x08            # DW_CFA_def_cfa rsp+8
	.byte	0x90, 0x01                  # DW_CFA_offset rip, 1 * -8
	.p2align 2, 0
cie_pcrel_udata4_end:
fde_pcrel_udata4:
	.long	fde_pcrel_udata4_end - fde_pcrel_udata4_id
fde_pcrel_udata4_id:
	.long	fde_pcrel_udata4_id - cie_pcrel_udata4
	.long f_pcrel_udata4 - .
	.long f_pcrel_udata4_end - f_pcrel_udata4
	.uleb128 0
	.byte	0x41, 0x0e, 0x10            # DW_CFA_advance_loc 1; DW_CFA_def_cfa_offset 16
	.byte	0x86, 0x02                  # DW_CFA_offset rbp, 2 * -8
	.byte	0x02, 0x01, 0x0e, 0x10      # DW_CFA_advance_loc1 1; DW_CFA_def_cfa_offset 16
	.byte	0x03, 0x01, 0x00, 0x0e, 0x08, 0xc6   # DW_CFA_advance_loc2 1; def_cfa_offset 8; restore rbp
	.byte	0x04, 0x00, 0x00, 0x00, 0x00, 0x0e, 0x08   # DW_CFA_advance_loc4 0 (a zero advance)
	.p2align 2, 0
fde_pcrel_udata4_end:
	.long	0                           # terminator
