package dev.gsym.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** llvm's auto-radix address parsing (outcomes checked with llvm-gsymutil-22). */
class AddressesTest {
  @Test
  void autoRadix() {
    assertThat(Addresses.parse("4096")).isEqualTo(0x1000L);
    assertThat(Addresses.parse("010000")).isEqualTo(0x1000L);
    assertThat(Addresses.parse("0b1000000000000")).isEqualTo(0x1000L);
    assertThat(Addresses.parse("0B1000")).isEqualTo(8L);
    assertThat(Addresses.parse("0X1000")).isEqualTo(0x1000L);
    assertThat(Addresses.parse("0xABCdef")).isEqualTo(0xabcdefL);
    assertThat(Addresses.parse("0o17")).isEqualTo(15L);
    assertThat(Addresses.parse("0")).isEqualTo(0L);
    assertThat(Addresses.parse("00")).isEqualTo(0L);
    assertThat(Addresses.parse("0xffffffffffffffff")).isEqualTo(-1L);
    assertThat(Addresses.parse("18446744073709551615")).isEqualTo(-1L);
    for (String bad : new String[] {"", "0x", "0b", "08", "0b2", "1k", " 1", "1 ", "+1", "-1",
        "0x10000000000000000", "18446744073709551616", "0xg", "١٢"}) {
      assertThat(Addresses.parse(bad)).as(bad).isNull();
    }
  }
}
