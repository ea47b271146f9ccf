package dev.gsym.cfi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * DWARF expression bytes as llvm-dwarfdump-22 prints them in a CFI row ({@code DW_OP_breg7 RSP+8,
 * DW_OP_deref}): operation names, unsigned operands in hex, signed ones with their sign, registers
 * by llvm's names, an operand cut short by the end of the expression as 0. Only for comparing the
 * expressions our reader keeps with llvm's rows; an operation it does not know prints as
 * {@code <unknown 0xNN>}, which no llvm row matches.
 */
final class DwarfExpressionText {
  private DwarfExpressionText() {}

  static String print(byte[] expr, ByteOrder order, int addressSize, RegisterNames regs) {
    ByteBuffer b = ByteBuffer.wrap(expr).order(order);
    StringBuilder out = new StringBuilder();
    while (b.hasRemaining()) {
      if (!out.isEmpty()) out.append(", ");
      int op = b.get() & 0xff;
      if (op >= 0x30 && op <= 0x4f) {
        out.append("DW_OP_lit").append(op - 0x30);
      } else if (op >= 0x50 && op <= 0x6f) {
        out.append("DW_OP_reg").append(op - 0x50).append(' ').append(regs.name(op - 0x50));
      } else if (op >= 0x70 && op <= 0x8f) {
        out.append("DW_OP_breg").append(op - 0x70).append(' ').append(regs.name(op - 0x70)).append(signed(sleb(b)));
      } else {
        switch (op) {
          case 0x03 -> out.append("DW_OP_addr ").append(hex(fixed(b, addressSize)));
          case 0x06 -> out.append("DW_OP_deref");
          case 0x08 -> out.append("DW_OP_const1u ").append(hex(fixed(b, 1)));
          case 0x09 -> out.append("DW_OP_const1s ").append(signed((byte) fixed(b, 1)));
          case 0x0a -> out.append("DW_OP_const2u ").append(hex(fixed(b, 2)));
          case 0x0b -> out.append("DW_OP_const2s ").append(signed((short) fixed(b, 2)));
          case 0x0c -> out.append("DW_OP_const4u ").append(hex(fixed(b, 4)));
          case 0x0d -> out.append("DW_OP_const4s ").append(signed((int) fixed(b, 4)));
          case 0x0e -> out.append("DW_OP_const8u ").append(hex(fixed(b, 8)));
          case 0x0f -> out.append("DW_OP_const8s ").append(signed(fixed(b, 8)));
          case 0x10 -> out.append("DW_OP_constu ").append(hex(uleb(b)));
          case 0x11 -> out.append("DW_OP_consts ").append(signed(sleb(b)));
          case 0x12 -> out.append("DW_OP_dup");
          case 0x13 -> out.append("DW_OP_drop");
          case 0x14 -> out.append("DW_OP_over");
          case 0x15 -> out.append("DW_OP_pick ").append(hex(fixed(b, 1)));
          case 0x16 -> out.append("DW_OP_swap");
          case 0x17 -> out.append("DW_OP_rot");
          case 0x18 -> out.append("DW_OP_xderef");
          case 0x19 -> out.append("DW_OP_abs");
          case 0x1a -> out.append("DW_OP_and");
          case 0x1b -> out.append("DW_OP_div");
          case 0x1c -> out.append("DW_OP_minus");
          case 0x1d -> out.append("DW_OP_mod");
          case 0x1e -> out.append("DW_OP_mul");
          case 0x1f -> out.append("DW_OP_neg");
          case 0x20 -> out.append("DW_OP_not");
          case 0x21 -> out.append("DW_OP_or");
          case 0x22 -> out.append("DW_OP_plus");
          case 0x23 -> out.append("DW_OP_plus_uconst ").append(hex(uleb(b)));
          case 0x24 -> out.append("DW_OP_shl");
          case 0x25 -> out.append("DW_OP_shr");
          case 0x26 -> out.append("DW_OP_shra");
          case 0x27 -> out.append("DW_OP_xor");
          case 0x28 -> out.append("DW_OP_bra ").append(signed((short) fixed(b, 2)));
          case 0x29 -> out.append("DW_OP_eq");
          case 0x2a -> out.append("DW_OP_ge");
          case 0x2b -> out.append("DW_OP_gt");
          case 0x2c -> out.append("DW_OP_le");
          case 0x2d -> out.append("DW_OP_lt");
          case 0x2e -> out.append("DW_OP_ne");
          case 0x2f -> out.append("DW_OP_skip ").append(signed((short) fixed(b, 2)));
          case 0x90 -> out.append("DW_OP_regx ").append(regs.name((int) uleb(b)));
          case 0x91 -> out.append("DW_OP_fbreg ").append(signed(sleb(b)));
          case 0x92 -> {
            int reg = (int) uleb(b);
            out.append("DW_OP_bregx ").append(regs.name(reg)).append(signed(sleb(b)));
          }
          case 0x93 -> out.append("DW_OP_piece ").append(hex(uleb(b)));
          case 0x94 -> out.append("DW_OP_deref_size ").append(hex(fixed(b, 1)));
          case 0x95 -> out.append("DW_OP_xderef_size ").append(hex(fixed(b, 1)));
          case 0x96 -> out.append("DW_OP_nop");
          case 0x9c -> out.append("DW_OP_call_frame_cfa");
          case 0x9f -> out.append("DW_OP_stack_value");
          default -> out.append(String.format("<unknown 0x%02x>", op));
        }
      }
    }
    return out.toString();
  }

  private static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }

  private static String signed(long v) {
    return (v >= 0 ? "+" : "") + v;
  }

  /** A fixed-size operand; one the expression's end cuts short is 0 (and ends the expression). */
  private static long fixed(ByteBuffer b, int n) {
    if (b.remaining() < n) {
      b.position(b.limit());
      return 0;
    }
    long v = 0;
    for (int i = 0; i < n; i++) {
      long x = b.get() & 0xffL;
      v |= b.order() == ByteOrder.LITTLE_ENDIAN ? x << (8 * i) : x << (8 * (n - 1 - i));
    }
    return v;
  }

  private static long uleb(ByteBuffer b) {
    long v = 0;
    int shift = 0;
    while (b.hasRemaining()) {
      int x = b.get() & 0xff;
      if (shift < 64) v |= (long) (x & 0x7f) << shift;
      shift += 7;
      if ((x & 0x80) == 0) return v;
    }
    return 0;
  }

  private static long sleb(ByteBuffer b) {
    long v = 0;
    int shift = 0;
    while (b.hasRemaining()) {
      int x = b.get() & 0xff;
      if (shift < 64) v |= (long) (x & 0x7f) << shift;
      shift += 7;
      if ((x & 0x80) == 0) {
        if (shift < 64 && (x & 0x40) != 0) v |= -1L << shift;
        return v;
      }
    }
    return 0;
  }
}
