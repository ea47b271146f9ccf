package dev.gsym.dwarf.read;

import dev.gsym.object.ObjectFile;
import dev.gsym.internal.concurrent.Forked;
import dev.gsym.io.ByteView;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Parses the line tables of .debug_line one after the other on an executor while the main
 * thread inflates .debug_info (one zlib stream, ~1 s for a large binary, during which the second
 * core is mostly idle), until {@link #finish} is called. A unit's line table does not depend on the
 * unit (the address size in a DWARF 2-4 unit header is not used to read its program), so a table
 * parsed here equals the one the unit would parse. Best effort: it stops at the first table that
 * does not parse (the unit that needs it parses it again and reports the damage) and never runs for
 * relocatable objects or on one processor.
 */
final class LineTablePreparser {
  private final Map<DebugLineOffset, LineTable> tables = new ConcurrentHashMap<>();
  private volatile boolean stop;
  private final Forked<Void> task;

  private LineTablePreparser(ObjectFile elf, Executor executor) {
    task = Forked.fork(executor, () -> {
      run(elf);
      return null;
    });
  }

  /** Starts parsing on {@code executor}, or returns null when there is nothing to overlap. */
  static LineTablePreparser start(ObjectFile elf, Executor executor) {
    if (Runtime.getRuntime().availableProcessors() < 2 || elf.relocatesDwarf()
        || !elf.hasDwarfSection(".debug_line")) {
      return null;
    }
    return new LineTablePreparser(elf, executor);
  }

  private void run(ObjectFile elf) {
    try (DwarfFile lines = new DwarfFile(DwarfSections.forLineTables(elf), null)) {
      ByteView sec = lines.sections().line();
      long off = 0;
      while (!stop && off + 4 <= sec.size()) {
        long length = sec.u32(off);
        long next;
        if (length == 0xffffffffL) {
          if (off + 12 > sec.size()) return;
          next = off + 12 + sec.u64(off + 4);
        } else if (length >= 0xfffffff0L) {
          return;
        } else {
          next = off + 4 + length;
        }
        if (next <= off || next > sec.size()) return;
        tables.put(new DebugLineOffset(off), LineTable.parse(lines, new DebugLineOffset(off), 8));
        off = next;
      }
    } catch (RuntimeException | Error e) {
      // a damaged table: the units parse it (and the rest) themselves
    }
  }

  /** Parses every table (here, if the executor has not started) and returns them, by offset (for tests). */
  Map<DebugLineOffset, LineTable> awaitAll() {
    task.join();
    return tables;
  }

  /**
   * Stops parsing (after the table in progress; nothing is parsed if it has not started) and returns
   * the tables parsed so far, by offset. May be called more than once.
   */
  Map<DebugLineOffset, LineTable> finish() {
    stop = true;
    task.cancelOrAwait();
    return tables;
  }
}
