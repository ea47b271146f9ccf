package dev.gsym.unwind;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Unwinder.step on hand-built stacks: every rule kind, DWARF expressions, postfix rules, failures. */
class UnwinderTest {
  private static final int RSP = 7;
  private static final int RBP = 6;
  private static final int RBX = 3;
  private static final int RIP = 16;
  private static final long STACK = 0x7ff000;

  /** Little-endian stack memory at {@link #STACK}. */
  static final class Stack implements MemoryReader {
    final ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);

    Stack put(long addr, long value) {
      b.putLong((int) (addr - STACK), value);
      return this;
    }

    @Override
    public boolean readable(long address, int size) {
      return address >= STACK && address + size <= STACK + b.capacity();
    }

    @Override
    public long read(long address, int size) {
      long v = 0;
      for (int i = size - 1; i >= 0; i--) v = (v << 8) | (b.get((int) (address - STACK + i)) & 0xff);
      return v;
    }
  }

  static UnwindState state(Arch arch, CfaRule cfa, Object... rules) {
    TreeMap<Integer, RegisterRule> m = new TreeMap<>();
    for (int i = 0; i < rules.length; i += 2) m.put((Integer) rules[i], (RegisterRule) rules[i + 1]);
    UnwindState s = new UnwindState();
    s.set(new UnwindRow(0x1000, cfa, m));
    s.table(arch, UnwindSource.EH_FRAME, 0x1000, 0x100, arch.returnAddress());
    return s;
  }

  @Test
  void framePointerFunctionBody() {
    // callee body: rbp = rsp + 0x10 at the time of the frame's CFA; [rbp] = saved rbp, [rbp+8] = return address
    long rbp = STACK + 0x100;
    Stack mem = new Stack().put(rbp, STACK + 0x300).put(rbp + 8, 0x401234);
    Registers callee = new Registers();
    callee.set(RSP, STACK + 0x80);
    callee.set(RBP, rbp);
    callee.set(RBX, 42);
    callee.set(0, 7); // rax: not callee-saved, unknown in the caller
    callee.pc(0x1010);
    UnwindState row = state(Arch.X86_64, new CfaRule.RegisterOffset(RBP, 16), RIP, new RegisterRule.Offset(-8),
        RBP, new RegisterRule.Offset(-16));
    Registers caller = new Registers();
    assertThat(new Unwinder(Arch.X86_64).step(row, callee, mem, caller)).isTrue();
    assertThat(caller.pc()).isEqualTo(0x401234);
    assertThat(caller.get(RSP)).isEqualTo(rbp + 16);
    assertThat(caller.get(RBP)).isEqualTo(STACK + 0x300);
    assertThat(caller.get(RBX)).isEqualTo(42);
    assertThat(caller.has(0)).isFalse();
  }

  @Test
  void plt0ExpressionAndSignalFrameRules() {
    // glibc's PLT CFA: rsp + 8 + ((rip & 15) >= 11 ? 8 : 0)
    // DW_OP_breg7 8; DW_OP_breg16 0; DW_OP_lit15; DW_OP_and; DW_OP_lit11; DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus
    byte[] plt = {0x77, 0x08, (byte) 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22};
    Stack mem = new Stack().put(STACK + 0x8, 0xaaaa).put(STACK + 0x10, 0xbbbb);
    for (long rip : new long[] {0x1020, 0x102b}) {
      Registers callee = new Registers();
      callee.set(RSP, STACK + 0x8);
      callee.set(RIP, rip);
      UnwindState row = state(Arch.X86_64, new CfaRule.Expression(plt), RIP, new RegisterRule.Offset(-8));
      Registers caller = new Registers();
      assertThat(new Unwinder(Arch.X86_64).step(row, callee, mem, caller)).isTrue();
      long cfa = STACK + 0x10 + (rip == 0x102b ? 8 : 0);
      assertThat(caller.get(RSP)).isEqualTo(cfa);
      assertThat(caller.pc()).isEqualTo(rip == 0x102b ? 0xbbbb : 0xaaaa);
    }
    // __restore_rt: every register through DW_CFA_expression: rbx at [rsp + 0x88] (breg7 0x88)
    Stack sig = new Stack().put(STACK + 0x88, 99).put(STACK + 0xa8, 0x5555).put(STACK + 0xa0, STACK + 0x400);
    Registers callee = new Registers();
    callee.set(RSP, STACK);
    UnwindState row = state(Arch.X86_64, new CfaRule.Expression(new byte[] {0x77, (byte) 0xa0, 0x01, 0x06}),
        RBX, new RegisterRule.Expression(new byte[] {0x77, (byte) 0x88, 0x01}),
        RIP, new RegisterRule.Expression(new byte[] {0x77, (byte) 0xa8, 0x01}),
        RBP, new RegisterRule.ValExpression(new byte[] {0x77, 0x10}));
    Registers caller = new Registers();
    assertThat(new Unwinder(Arch.X86_64).step(row, callee, sig, caller)).isTrue();
    assertThat(caller.get(RSP)).isEqualTo(STACK + 0x400);
    assertThat(caller.get(RBX)).isEqualTo(99);
    assertThat(caller.pc()).isEqualTo(0x5555);
    assertThat(caller.get(RBP)).isEqualTo(STACK + 0x10);
  }

  @Test
  void aarch64LinkRegisterAndPointerAuthentication() {
    Registers callee = new Registers();
    callee.set(31, STACK + 0x40);
    callee.set(30, 0x4000_0000_0040_1000L | 0x1234);
    callee.set(29, STACK + 0x100);
    // a leaf: CFA = sp, lr unchanged (no rule for x30), signed return address
    UnwindState row = state(Arch.AARCH64, new CfaRule.RegisterOffset(31, 0),
        Arch.AARCH64_RA_SIGN_STATE, new RegisterRule.Constant(1));
    Registers caller = new Registers();
    assertThat(new Unwinder(Arch.AARCH64).step(row, callee, new Stack(), caller)).isTrue();
    assertThat(caller.pc()).isEqualTo(0x0040_1000L | 0x1234);
    assertThat(caller.get(31)).isEqualTo(STACK + 0x40);
    assertThat(caller.get(29)).isEqualTo(STACK + 0x100); // callee-saved, no rule: unchanged
  }

  @Test
  void breakpadPostfixRules() {
    Stack mem = new Stack().put(STACK + 0x20, 0x7777).put(STACK + 0x18, STACK + 0x500);
    Registers callee = new Registers();
    callee.set(RSP, STACK + 0x10);
    UnwindState row = state(Arch.X86_64, new CfaRule.Postfix("$rsp 24 +"),
        RIP, new RegisterRule.Postfix(".cfa 8 - ^"), RBP, new RegisterRule.Postfix(".cfa 16 - ^"));
    Registers caller = new Registers();
    assertThat(new Unwinder(Arch.X86_64).step(row, callee, mem, caller)).isTrue();
    assertThat(caller.pc()).isEqualTo(0x7777);
    assertThat(caller.get(RBP)).isEqualTo(STACK + 0x500);
  }

  @Test
  void failsWithoutWhatTheRulesNeed() {
    Unwinder u = new Unwinder(Arch.X86_64);
    Registers caller = new Registers();
    Registers noRbp = new Registers();
    noRbp.set(RSP, STACK);
    assertThat(u.step(state(Arch.X86_64, new CfaRule.RegisterOffset(RBP, 16), RIP, new RegisterRule.Offset(-8)),
        noRbp, new Stack(), caller)).isFalse();
    Registers outside = new Registers();
    outside.set(RSP, 0x10);
    assertThat(u.step(state(Arch.X86_64, new CfaRule.RegisterOffset(RSP, 8), RIP, new RegisterRule.Offset(-8)),
        outside, new Stack(), caller)).isFalse();
    // no return address rule on x86-64 (rip is not a register the callee holds for its caller)
    Registers r = new Registers();
    r.set(RSP, STACK);
    r.set(RIP, 0x1000);
    assertThat(u.step(state(Arch.X86_64, new CfaRule.RegisterOffset(RSP, 8)), r, new Stack(), caller)).isFalse();
    // an endless expression loop: DW_OP_skip -3 forever
    assertThat(u.step(state(Arch.X86_64, new CfaRule.Expression(new byte[] {0x2f, (byte) 0xfd, (byte) 0xff}),
        RIP, new RegisterRule.Offset(-8)), r, new Stack(), caller)).isFalse();
    assertThat(u.step(state(Arch.X86_64, new CfaRule.RegisterOffset(RSP, 8), RIP, RegisterRule.UNDEFINED),
        r, new Stack(), caller)).isFalse();
  }
}
