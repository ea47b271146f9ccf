package dev.gsym.dwarf;

import dev.gsym.format.AddressRange;
import dev.gsym.format.FunctionInfo;
import dev.gsym.write.GsymCreator;

/** Adds an ELF's UUID (GNU build ID) and its .symtab functions (llvm's ObjectFileTransformer). */
public final class ObjectFileTransformer {
  private ObjectFileTransformer() {}

  /** Sets the UUID and adds one FunctionInfo per STT_FUNC symbol in an executable section; returns the count. */
  public static int convert(ElfFile elf, GsymCreator gsym) {
    byte[] id = elf.buildId();
    if (id != null) gsym.setUUID(id);
    int n = 0;
    for (ElfFile.Symbol s : elf.symbols()) {
      if (s.type() != ElfFile.STT_FUNC || !gsym.isValidTextAddress(s.value())) continue;
      gsym.addFunctionInfo(new FunctionInfo(new AddressRange(s.value(), s.value() + s.size()), gsym.insertString(s.name())));
      n++;
    }
    return n;
  }
}
