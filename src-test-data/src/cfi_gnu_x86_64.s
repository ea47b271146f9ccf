# DW_CFA_GNU_negative_offset_extended and DW_CFA_MIPS_advance_loc8, which llvm-dwarfdump-22 does not
# decode (binutils readelf -wF does). x86-64, src-test-data/regenerate-cfi.sh.
	.text
	.globl	_start
_start:
	.cfi_startproc
	nop
	.cfi_escape 0x1d, 1, 0, 0, 0, 0, 0, 0, 0   # DW_CFA_MIPS_advance_loc8 1
	.cfi_escape 0x0e, 0x10                     # DW_CFA_def_cfa_offset 16
	nop
	.cfi_escape 0x2f, 0x03, 0x02               # DW_CFA_GNU_negative_offset_extended rbx, -(2 * -8)
	ret
	.cfi_endproc
