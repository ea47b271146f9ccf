package dev.gsym.coff;

import dev.gsym.GsymFormatException;
import dev.gsym.io.ByteView;
import dev.gsym.unwind.CfaRule;
import dev.gsym.unwind.CfiTable;
import dev.gsym.unwind.RegisterRule;
import dev.gsym.unwind.UnwindRow;
import dev.gsym.unwind.UnwindSource;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The x64 unwind information of a PE image: the {@code RUNTIME_FUNCTION} table of the exception
 * directory ({@code .pdata}) and each function's {@code UNWIND_INFO} ({@code .xdata}, version 1
 * or 2: unwind codes, chained information, the exception handler's RVA), and for each function the
 * rows of a call frame information table that unwind as Windows' {@code RtlVirtualUnwind} does.
 *
 * <p>Rows: at every address of a function RtlVirtualUnwind's state is the same from one change
 * point to the next (an unwind code's offset in the function or in a chained parent, the end of
 * the prolog, the start of a chained parent, a version 2 epilog and each pop in it), so the table
 * has a row at each change point, computed as RtlVirtualUnwind computes the caller's registers at
 * that address: the unwind codes whose instruction has run, reversed, through every chained
 * parent; in a version 2 epilog (listed by its {@code UWOP_EPILOG} codes) the pops that have not
 * yet run and the return. Version 1 functions have no epilog information: RtlVirtualUnwind finds
 * epilogs by decoding the instructions at the address, which rows cannot say; their rows hold the
 * body's state there (docs/unwind.md, "PE/COFF x64 unwind codes").
 *
 * <p>Malformed tables (RVAs outside the image's sections, codes that run past their array,
 * unknown operations, and tables whose evaluation would take more than a budget proportional to
 * their entries) are {@link GsymFormatException}s with the absolute file offset; what Windows
 * itself would fail on or what rows cannot say (chains deeper than 32, an empty range, unwind
 * versions other than 1 and 2, codes that follow a machine frame) makes a function's plan {@link
 * Plan.Invalid}.
 */
public final class PeUnwind {
  /** UNWIND_INFO flag: the function has an exception handler. */
  public static final int UNW_FLAG_EHANDLER = 1;
  /** UNWIND_INFO flag: the function has a termination handler. */
  public static final int UNW_FLAG_UHANDLER = 2;
  /** UNWIND_INFO flag: the entry continues a previous one (chained unwind information). */
  public static final int UNW_FLAG_CHAININFO = 4;

  /** Unwind operation: push a nonvolatile register. */
  public static final int UWOP_PUSH_NONVOL = 0;
  /** Unwind operation: allocate a large area on the stack. */
  public static final int UWOP_ALLOC_LARGE = 1;
  /** Unwind operation: allocate a small area on the stack. */
  public static final int UWOP_ALLOC_SMALL = 2;
  /** Unwind operation: set the frame pointer register. */
  public static final int UWOP_SET_FPREG = 3;
  /** Unwind operation: save a nonvolatile register on the stack. */
  public static final int UWOP_SAVE_NONVOL = 4;
  /** Unwind operation: save a nonvolatile register on the stack, far offset. */
  public static final int UWOP_SAVE_NONVOL_FAR = 5;
  /** Version 2: an epilog (in version 1, the obsolete UWOP_SAVE_XMM). */
  public static final int UWOP_EPILOG = 6;
  /** Version 1's obsolete UWOP_SAVE_XMM_FAR. */
  public static final int UWOP_SPARE_CODE = 7;
  /** Unwind operation: save an XMM register on the stack. */
  public static final int UWOP_SAVE_XMM128 = 8;
  /** Unwind operation: save an XMM register on the stack, far offset. */
  public static final int UWOP_SAVE_XMM128_FAR = 9;
  /** Unwind operation: push a machine frame (interrupt or exception). */
  public static final int UWOP_PUSH_MACHFRAME = 10;

  /** Windows' limit on chained unwind information (UNWIND_CHAIN_LIMIT). */
  public static final int CHAIN_LIMIT = 32;

  /** A {@code RUNTIME_FUNCTION}: RVAs of the function's start and end and of its unwind information (odd: of another RUNTIME_FUNCTION). */
  public record RuntimeFunction(long begin, long end, long unwindData) {}

  /** One unwind code (one to three slots of the array), decoded. {@code codeOffset}: the end of its instruction in the prolog. */
  public sealed interface UnwindCode {
    /** The offset in the prolog of the end of the instruction the code describes. */
    int codeOffset();

    /** {@code push reg} (Windows register number: 0 RAX, 1 RCX, 2 RDX, 3 RBX, 4 RSP, 5 RBP, 6 RSI, 7 RDI, 8-15 R8-R15). */
    record PushNonVol(int codeOffset, int register) implements UnwindCode {}

    /** {@code sub rsp, size}; {@code wide}: the 32-bit form (OpInfo 1), else 16 bits in 8-byte units. */
    record AllocLarge(int codeOffset, long size, boolean wide) implements UnwindCode {}

    /** {@code sub rsp, size} with size 8 to 128. */
    record AllocSmall(int codeOffset, int size) implements UnwindCode {}

    /** The frame register is set to rsp + 16 * the UNWIND_INFO's frame offset. */
    record SetFpReg(int codeOffset) implements UnwindCode {}

    /** {@code mov [rsp+offset], reg} ({@code far}: the 32-bit form). */
    record SaveNonVol(int codeOffset, int register, long offset, boolean far) implements UnwindCode {}

    /** {@code movaps [rsp+offset], xmmN} ({@code far}: the 32-bit form). */
    record SaveXmm128(int codeOffset, int register, long offset, boolean far) implements UnwindCode {}

    /** A machine frame (interrupt or exception), {@code errorCode}: with an error code (OpInfo 1). */
    record PushMachFrame(int codeOffset, boolean errorCode) implements UnwindCode {}

    /**
     * A version 2 epilog code: the first is the header (CodeOffset the epilogs' size, OpInfo bit 0:
     * one is at the end of the function), each later one an epilog's distance from the end
     * ({@code CodeOffset | OpInfo << 8}; 0 is padding).
     */
    record Epilog(int codeOffset, int opInfo) implements UnwindCode {}

    /** UWOP_SPARE_CODE (version 1's obsolete 3-slot UWOP_SAVE_XMM_FAR), which Windows does not accept. */
    record Spare(int codeOffset, int opInfo) implements UnwindCode {}
  }

  /**
   * An {@code UNWIND_INFO}.
   *
   * @param slots the unwind code array as stored (CountOfCodes 16-bit slots)
   * @param codes the slots decoded, one code per operation (UWOP_EPILOG one slot, as llvm reads them)
   * @param handler the RVA of the exception or termination handler, or -1
   * @param chained the parent function's entry when {@link #UNW_FLAG_CHAININFO}, else null
   */
  public record UnwindInfo(long rva, int version, int flags, int prologSize, int frameRegister, int frameOffset, int[] slots,
      List<UnwindCode> codes, long handler, RuntimeFunction chained) {
    /** Copies the slots and the codes. */
    public UnwindInfo {
      slots = slots.clone();
      codes = List.copyOf(codes);
    }

    /** The raw unwind code slots (a copy). */
    @Override
    public int[] slots() {
      return slots.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof UnwindInfo u && rva == u.rva && version == u.version && flags == u.flags && prologSize == u.prologSize
          && frameRegister == u.frameRegister && frameOffset == u.frameOffset && java.util.Arrays.equals(slots, u.slots)
          && codes.equals(u.codes) && handler == u.handler && Objects.equals(chained, u.chained);
    }

    @Override
    public int hashCode() {
      return Objects.hash(rva, version, flags, java.util.Arrays.hashCode(slots));
    }

    @Override
    public String toString() {
      return "UnwindInfo[rva=0x" + Long.toHexString(rva) + ", version=" + version + ", flags=" + flags + ", codes=" + codes + "]";
    }

    int op(int slot) {
      return slots[slot] >>> 8 & 0xF;
    }

    int opInfo(int slot) {
      return slots[slot] >>> 12;
    }

    int codeOffsetAt(int slot) {
      return slots[slot] & 0xFF;
    }
  }

  /**
   * One entry of the function table and how to unwind it.
   *
   * @param index its position in the table
   * @param indirect for an entry whose unwind data is odd, the entry it names (whose unwind
   *     information and start address Windows uses), else null
   * @param info the unwind information Windows uses for the entry
   */
  public record Function(int index, RuntimeFunction entry, RuntimeFunction indirect, UnwindInfo info, Plan plan) {}

  /** How to unwind a function: the rows, or why Windows could not (or rows cannot say it). */
  public sealed interface Plan {
    /** The rows that recover the caller. */
    record Rows(CfiTable table) implements Plan {}

    /** Why no rows can be made. */
    record Invalid(String reason) implements Plan {}
  }

  private final long imageBase;
  private final List<Function> functions;

  private PeUnwind(long imageBase, List<Function> functions) {
    this.imageBase = imageBase;
    this.functions = Collections.unmodifiableList(functions);
  }

  /**
   * The x64 unwind information of {@code file}, or null when it is not an x64 image (objects and
   * other machines) or has no exception directory.
   */
  public static PeUnwind read(CoffFile file) {
    CoffHeader h = file.header();
    if (!h.peHeader() || h.machine() != CoffHeader.IMAGE_FILE_MACHINE_AMD64) return null;
    ByteView f = file.bytes();
    long opt = h.offset() + CoffHeader.SIZE;
    int magic = f.u16(opt);
    // PE32+ (0x20b): NumberOfRvaAndSizes at 108, the directories at 112; PE32: 92 and 96
    long countAt = opt + (magic == 0x20b ? 108 : 92);
    long dirs = countAt + 4;
    if (h.sizeOfOptionalHeader() < countAt + 4 - opt) return null;
    long count = f.u32(countAt);
    // the exception directory is entry 3; the optional header must hold it
    if (count < 4 || dirs + 4 * 8 > opt + h.sizeOfOptionalHeader()) return null;
    long rva = f.u32(dirs + 3 * 8);
    long size = f.u32(dirs + 3 * 8 + 4);
    if (rva == 0 || size == 0) return null;
    return new Reader(file, h.imageBase(), dirs + 3 * 8).read(rva, size);
  }

  /** The address of RVA 0 (the image base) the rows' addresses are relative to. */
  public long imageBase() {
    return imageBase;
  }

  /** Every entry of the function table, in table order. */
  public List<Function> functions() {
    return functions;
  }

  /** The call frame information tables of the functions whose plan has rows, in table order. */
  public List<CfiTable> tables() {
    List<CfiTable> out = new ArrayList<>();
    for (Function fn : functions) if (fn.plan() instanceof Plan.Rows rows) out.add(rows.table());
    return out;
  }

  /** Reads RUNTIME_FUNCTIONs and UNWIND_INFOs at RVAs of the image. */
  private static final class Reader {
    private final CoffFile file;
    private final ByteView bytes;
    private final long imageBase;
    private final long directoryField;
    private final java.util.Map<Long, UnwindInfo> infos = new java.util.HashMap<>();
    /** Slot steps the evaluation of all functions may take (see {@link #charge}). */
    private long budget;

    Reader(CoffFile file, long imageBase, long directoryField) {
      this.file = file;
      this.bytes = file.bytes();
      this.imageBase = imageBase;
      this.directoryField = directoryField;
    }

    /** The file offset of {@code len} bytes at {@code rva}, all in one section's raw data; {@code what} names them in the error. */
    long fileOffset(long rva, long len, long field, String what) {
      for (CoffSection s : file.sections()) {
        long off = rva - s.virtualAddress();
        if (off < 0 || s.isVirtual()) continue;
        if (off + len <= s.sizeOfRawData() && bytes.has(s.pointerToRawData() + off, len)) return s.pointerToRawData() + off;
      }
      throw bytes.error(field, what + " at RVA 0x" + Long.toHexString(rva) + " (" + len + " bytes) is not in the image's sections");
    }

    PeUnwind read(long rva, long size) {
      long n = size / 12;
      long table = fileOffset(rva, n * 12, directoryField, "the exception directory");
      budget = 1_000_000L + 400L * n;
      List<Function> out = new ArrayList<>((int) Math.min(n, 1 << 16));
      for (int i = 0; i < n; i++) {
        long at = table + 12L * i;
        RuntimeFunction rf = new RuntimeFunction(bytes.u32(at), bytes.u32(at + 4), bytes.u32(at + 8));
        out.add(function(i, rf, at));
      }
      return new PeUnwind(imageBase, out);
    }

    private Function function(int index, RuntimeFunction rf, long at) {
      RuntimeFunction indirect = null;
      RuntimeFunction used = rf;
      if ((rf.unwindData() & 1) != 0) {
        // RtlLookupFunctionEntry: an odd RVA names another RUNTIME_FUNCTION, whose unwind
        // information and start Windows then uses
        long target = fileOffset(rf.unwindData() - 1, 12, at + 8, "the RUNTIME_FUNCTION an indirect entry names");
        indirect = new RuntimeFunction(bytes.u32(target), bytes.u32(target + 4), bytes.u32(target + 8));
        used = indirect;
        if ((indirect.unwindData() & 1) != 0) {
          return new Function(index, rf, indirect, null, new Plan.Invalid("an indirect entry names another indirect entry"));
        }
        at = target;
      }
      UnwindInfo info = info(used.unwindData(), at + 8);
      Plan plan;
      if (Long.compareUnsigned(rf.begin(), rf.end()) >= 0) {
        plan = new Plan.Invalid("the function ends (RVA 0x" + Long.toHexString(rf.end()) + ") where or before it begins (RVA 0x"
            + Long.toHexString(rf.begin()) + ")");
      } else {
        plan = new Evaluator(this, index, rf, used, info).plan();
      }
      return new Function(index, rf, indirect, info, plan);
    }

    /**
     * Takes {@code steps} from the work the evaluation of the whole table may do, a bound real images
     * stay far below (their functions cost tens of steps, a hostile one up to millions).
     */
    void charge(long steps) {
      budget -= steps;
      if (budget < 0) throw bytes.error(directoryField, "the unwind information takes too much work to evaluate (chains and unwind codes of "
          + "the functions of the exception directory)");
    }

    /** The UNWIND_INFO at {@code rva}; {@code field} is the file offset of the field that gave the RVA. */
    UnwindInfo info(long rva, long field) {
      UnwindInfo known = infos.get(rva);
      if (known != null) return known;
      UnwindInfo info = readInfo(rva, field);
      infos.put(rva, info);
      return info;
    }

    private final java.util.Map<Long, Chain> chains = new java.util.HashMap<>();
    private final java.util.Map<Long, Long> infoOffsets = new java.util.HashMap<>();

    /** The chain of {@code info} (read and charged once however many entries share it). */
    Chain chain(UnwindInfo info) {
      Chain c = chains.get(info.rva());
      if (c == null) {
        c = Chain.of(this, info);
        chains.put(info.rva(), c);
      }
      return c;
    }

    /** The file offset of the UnwindData field of the chained RUNTIME_FUNCTION of {@code info}. */
    long chainedField(UnwindInfo info) {
      return infoOffsets.get(info.rva()) + 4 + 2L * ((info.slots.length + 1) & ~1) + 8;
    }

    private UnwindInfo readInfo(long rva, long field) {
      long at = fileOffset(rva, 4, field, "an UNWIND_INFO");
      int b0 = bytes.u8(at);
      int version = b0 & 7;
      int flags = b0 >>> 3;
      int prolog = bytes.u8(at + 1);
      int count = bytes.u8(at + 2);
      int frame = bytes.u8(at + 3);
      int even = (count + 1) & ~1;
      boolean chained = (flags & UNW_FLAG_CHAININFO) != 0;
      boolean handler = !chained && (flags & (UNW_FLAG_EHANDLER | UNW_FLAG_UHANDLER)) != 0;
      long tail = chained ? 12 : handler ? 4 : 0;
      long all = fileOffset(rva, 4 + 2L * even + tail, field, "an UNWIND_INFO with " + count + " unwind codes");
      infoOffsets.put(rva, all);
      int[] slots = new int[count];
      for (int i = 0; i < count; i++) slots[i] = bytes.u16(all + 4 + 2L * i);
      List<UnwindCode> codes = decode(slots, all + 4);
      long handlerRva = -1;
      RuntimeFunction parent = null;
      long after = all + 4 + 2L * even;
      if (chained) parent = new RuntimeFunction(bytes.u32(after), bytes.u32(after + 4), bytes.u32(after + 8));
      else if (handler) handlerRva = bytes.u32(after);
      return new UnwindInfo(rva, version, flags, prolog, frame & 0xF, frame >>> 4, slots, codes, handlerRva, parent);
    }

    /** Decodes the slots, as llvm reads them (an epilog code takes one slot); {@code at} is the file offset of slot 0. */
    private List<UnwindCode> decode(int[] slots, long at) {
      List<UnwindCode> codes = new ArrayList<>();
      for (int i = 0; i < slots.length;) {
        int offset = slots[i] & 0xFF;
        int op = slots[i] >>> 8 & 0xF;
        int info = slots[i] >>> 12;
        int n = switch (op) {
          case UWOP_PUSH_NONVOL, UWOP_ALLOC_SMALL, UWOP_SET_FPREG, UWOP_PUSH_MACHFRAME, UWOP_EPILOG -> 1;
          case UWOP_SAVE_NONVOL, UWOP_SAVE_XMM128 -> 2;
          case UWOP_SAVE_NONVOL_FAR, UWOP_SAVE_XMM128_FAR, UWOP_SPARE_CODE -> 3;
          case UWOP_ALLOC_LARGE -> info == 0 ? 2 : 3;
          default -> throw bytes.error(at + 2L * i, "unknown unwind operation " + op);
        };
        if (i + n > slots.length) {
          throw bytes.error(at + 2L * i, "unwind operation " + op + " needs " + n + " slots, " + (slots.length - i) + " are left");
        }
        long wide = n == 3 ? slots[i + 1] | (long) slots[i + 2] << 16 : 0;
        codes.add(switch (op) {
          case UWOP_PUSH_NONVOL -> new UnwindCode.PushNonVol(offset, info);
          case UWOP_ALLOC_LARGE -> info == 0 ? new UnwindCode.AllocLarge(offset, 8L * slots[i + 1], false)
              : new UnwindCode.AllocLarge(offset, wide, true);
          case UWOP_ALLOC_SMALL -> new UnwindCode.AllocSmall(offset, 8 * info + 8);
          case UWOP_SET_FPREG -> new UnwindCode.SetFpReg(offset);
          case UWOP_SAVE_NONVOL -> new UnwindCode.SaveNonVol(offset, info, 8L * slots[i + 1], false);
          case UWOP_SAVE_NONVOL_FAR -> new UnwindCode.SaveNonVol(offset, info, wide, true);
          case UWOP_SAVE_XMM128 -> new UnwindCode.SaveXmm128(offset, info, 16L * slots[i + 1], false);
          case UWOP_SAVE_XMM128_FAR -> new UnwindCode.SaveXmm128(offset, info, wide, true);
          case UWOP_PUSH_MACHFRAME -> new UnwindCode.PushMachFrame(offset, info != 0);
          case UWOP_EPILOG -> new UnwindCode.Epilog(offset, info);
          default -> new UnwindCode.Spare(offset, info);
        });
        i += n;
      }
      return codes;
    }
  }

  /** Thrown by the evaluator for what Windows fails on or rows cannot say; becomes the function's Invalid plan. */
  /** Thrown by the evaluator for what Windows fails on or rows cannot say; becomes the function's Invalid plan. */
  private static final class Unsupported extends RuntimeException {
    Unsupported(String message) {
      super(message, null, false, false);
    }
  }

  /** A location: the value of Windows register {@code base} (at the address the row is for) plus {@code offset}. */
  private record Loc(int base, long offset) {
    static final int RSP = 4;
  }

  /** DWARF numbers of Windows' integer registers 0-15. */
  private static final int[] DWARF = {0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15};
  private static final int DWARF_RIP = 16;
  private static final int DWARF_XMM0 = 17;

  /** Windows' slot count of a code (UnwindOpSlots): an epilog code takes two slots there. */
  private static int windowsSlots(UnwindInfo info, int slot) {
    int op = info.op(slot);
    int extra = switch (op) {
      case UWOP_ALLOC_LARGE -> info.opInfo(slot) != 0 ? 2 : 1;
      case UWOP_SAVE_NONVOL, UWOP_EPILOG, UWOP_SAVE_XMM128 -> 1;
      case UWOP_SAVE_NONVOL_FAR, UWOP_SPARE_CODE, UWOP_SAVE_XMM128_FAR -> 2;
      default -> 0;
    };
    return 1 + extra;
  }

  /**
   * What a function's unwind information and its chained parents give whatever the function's own
   * start and end: read once per UNWIND_INFO, however many entries share it.
   *
   * @param parents the chained parents' entries, in chain order
   * @param infos the unwind information of the function, then of each parent
   * @param problem why Windows would give up on the chain, or null
   * @param firstPush UnwindEpilogue's first push code: level and slot, or null
   * @param epiloguePoints where in a version 2 epilog its state changes (offsets from its start)
   * @param offsets each level's distinct code offsets, sorted
   * @param slots the slots of all levels, plus one: the work of one evaluation
   */
  private record Chain(List<RuntimeFunction> parents, List<UnwindInfo> infos, String problem, int[] firstPush, long[] epiloguePoints,
      int[][] offsets, long slots) {
    static Chain of(Reader reader, UnwindInfo info) {
      List<RuntimeFunction> parents = new ArrayList<>();
      List<UnwindInfo> infos = new ArrayList<>();
      infos.add(info);
      UnwindInfo ui = info;
      String problem = null;
      long slots = 1 + ui.slots.length;
      while ((ui.flags() & UNW_FLAG_CHAININFO) != 0) {
        if (parents.size() == CHAIN_LIMIT) {
          problem = "chained unwind information deeper than " + CHAIN_LIMIT;
          break;
        }
        RuntimeFunction parent = ui.chained();
        ui = reader.info(parent.unwindData(), reader.chainedField(ui));
        parents.add(parent);
        infos.add(ui);
        slots += ui.slots.length;
      }
      reader.charge(slots);
      for (UnwindInfo u : infos) {
        if (problem == null && u.version() != 1 && u.version() != 2) problem = "unwind information version " + u.version();
      }
      int[] first = firstPush(infos);
      long[] points = new long[0];
      if (first != null) {
        UnwindInfo p = infos.get(first[0]);
        List<Long> out = new ArrayList<>();
        long current = 0;
        for (int i = first[1]; i < p.slots.length && p.op(i) == UWOP_PUSH_NONVOL; i++) {
          out.add(current + 1);
          current += p.opInfo(i) >= 8 ? 2 : 1;
        }
        out.add(current + 1);
        points = out.stream().mapToLong(Long::longValue).toArray();
      }
      int[][] offsets = new int[infos.size()][];
      for (int l = 0; l < infos.size(); l++) {
        offsets[l] = java.util.Arrays.stream(infos.get(l).slots).map(s -> s & 0xFF).sorted().distinct().toArray();
      }
      return new Chain(parents, infos, problem, first, points, offsets, slots);
    }

    /** UnwindEpilogue's search for the first push: in the function's codes, else in each parent's. */
    private static int[] firstPush(List<UnwindInfo> infos) {
      for (int l = 0; l < infos.size(); l++) {
        UnwindInfo ui = infos.get(l);
        for (int i = 0; i < ui.slots.length; i += windowsSlots(ui, i)) {
          if (ui.op(i) == UWOP_PUSH_NONVOL || ui.op(i) == UWOP_PUSH_MACHFRAME) return new int[] {l, i};
        }
        if ((ui.flags() & UNW_FLAG_CHAININFO) == 0) return null;
      }
      return null;
    }
  }

  /** RtlVirtualUnwind for one function at every change point. */
  private static final class Evaluator {
    private final Reader reader;
    private final int index;
    private final RuntimeFunction entry;
    /** The entry whose unwind information and start Windows uses (the indirect target, or the entry). */
    private final RuntimeFunction primary;
    private final UnwindInfo info;
    private final Chain chain;
    /** The start RVA of each level: the primary's, then each parent's. */
    private final long[] begins;
    private List<long[]> epilogs;

    Evaluator(Reader reader, int index, RuntimeFunction entry, RuntimeFunction primary, UnwindInfo info) {
      this.reader = reader;
      this.index = index;
      this.entry = entry;
      this.primary = primary;
      this.info = info;
      this.chain = reader.chain(info);
      begins = new long[chain.infos().size()];
      begins[0] = primary.begin();
      for (int l = 1; l < begins.length; l++) begins[l] = chain.parents().get(l - 1).begin();
    }

    Plan plan() {
      if (chain.problem() != null) return new Plan.Invalid(chain.problem());
      epilogs = epilogs();
      long begin = entry.begin();
      long end = entry.end();
      reader.charge(begins.length + (long) epilogs.size() * (chain.epiloguePoints().length + 2));
      TreeSet<Long> inside = new TreeSet<>();
      inside.add(begin);
      addInside(inside, primary.begin() + info.prologSize(), begin, end);
      for (int l = 0; l < begins.length; l++) {
        long b = begins[l];
        addInside(inside, b, begin, end);
        // only the offsets that land inside the function
        int[] offs = chain.offsets()[l];
        int from = java.util.Arrays.binarySearch(offs, (int) Math.max(0, Math.min(256, begin - b)));
        for (int k = from < 0 ? -from - 1 : from; k < offs.length && b + offs[k] < end; k++) addInside(inside, b + offs[k], begin, end);
      }
      for (long[] epilog : epilogs) {
        long start = epilog[0];
        addInside(inside, start, begin, end);
        addInside(inside, start + epilog[1], begin, end);
        for (long c : chain.epiloguePoints()) addInside(inside, start + c, begin, end);
      }
      reader.charge((long) inside.size() * chain.slots());
      List<UnwindRow> rows = new ArrayList<>();
      try {
        for (long rva : inside) {
          UnwindRow row = at(rva);
          if (!rows.isEmpty() && rows.getLast().cfa().equals(row.cfa()) && rows.getLast().registers().equals(row.registers())) continue;
          rows.add(row);
        }
      } catch (Unsupported e) {
        return new Plan.Invalid(e.getMessage());
      }
      return new Plan.Rows(new CfiTable(UnwindSource.PE_UNWIND, index, reader.imageBase + begin, end - begin, DWARF_RIP, rows));
    }

    private static void addInside(TreeSet<Long> points, long rva, long begin, long end) {
      if (rva >= begin && rva < end) points.add(rva);
    }

    /** The version 2 epilogs of the primary information: RVA of the start and size of each. */
    private List<long[]> epilogs() {
      List<long[]> out = new ArrayList<>();
      if (info.version() < 2 || info.slots.length == 0 || info.op(0) != UWOP_EPILOG) return out;
      long size = info.codeOffsetAt(0);
      if ((info.opInfo(0) & 1) != 0) out.add(new long[] {(primary.end() - size) & 0xFFFFFFFFL, size});
      for (int i = 1; i < info.slots.length && info.op(i) == UWOP_EPILOG; i++) {
        long offset = info.codeOffsetAt(i) + 256L * info.opInfo(i);
        if (offset == 0) break;
        out.add(new long[] {(primary.end() - offset) & 0xFFFFFFFFL, size});
      }
      return out;
    }

    /** The caller's registers at {@code rva}, as RtlVirtualUnwind finds them. */
    UnwindRow at(long rva) {
      long prologOffset = (rva - primary.begin()) & 0xFFFFFFFFL;
      Loc establisher = establisherFrame(prologOffset);
      long relative = rva & 0xFFFFFFFFL;
      for (long[] epilog : epilogs) {
        if (((relative - epilog[0]) & 0xFFFFFFFFL) < epilog[1]) return epilogue(rva, (relative - epilog[0]) & 0xFFFFFFFFL);
      }
      return prologue(rva, establisher);
    }

    private Loc establisherFrame(long prologOffset) {
      if (info.frameRegister() == 0) return new Loc(Loc.RSP, 0);
      Loc frame = new Loc(info.frameRegister(), -16L * info.frameOffset());
      if (prologOffset >= info.prologSize() || (info.flags() & UNW_FLAG_CHAININFO) != 0) return frame;
      for (int i = 0; i < info.slots.length; i += windowsSlots(info, i)) {
        // RtlVirtualUnwind reads the slot after the array when there is no UWOP_SET_FPREG: taken as not yet set
        if (info.op(i) == UWOP_SET_FPREG) return prologOffset >= info.codeOffsetAt(i) ? frame : new Loc(Loc.RSP, 0);
      }
      return new Loc(Loc.RSP, 0);
    }

    private UnwindRow epilogue(long rva, long epilogueOffset) {
      Frame fr = new Frame();
      int[] first = chain.firstPush();
      if (first != null) {
        UnwindInfo ui = chain.infos().get(first[0]);
        long current = 0;
        int i = first[1];
        int lastOp = -1, lastInfo = 0;
        for (; i < ui.slots.length; i++) {
          lastOp = ui.op(i);
          lastInfo = ui.opInfo(i);
          if (lastOp != UWOP_PUSH_NONVOL) break;
          if (current >= epilogueOffset) fr.push(lastInfo);
          current += lastInfo >= 8 ? 2 : 1;
        }
        // a pushfq's UWOP_ALLOC_SMALL 8, popped into a volatile register
        if (i < ui.slots.length && lastOp == UWOP_ALLOC_SMALL && lastInfo == 0) {
          if (current >= epilogueOffset) fr.add(8);
          i++;
        }
        if (i < ui.slots.length && ui.op(i) == UWOP_PUSH_MACHFRAME) {
          // UnwindEpilogue's machine frame: rip at rsp, rsp at rsp + 24 (no error code there)
          fr.machineFrame(false);
        }
      }
      return fr.row(rva);
    }

    private UnwindRow prologue(long rva, Loc establisher) {
      Frame fr = new Frame();
      for (int l = 0; l < begins.length; l++) {
        UnwindInfo ui = chain.infos().get(l);
        long prologOffset = (rva - begins[l]) & 0xFFFFFFFFL;
        int[] s = ui.slots;
        for (int i = 0; i < s.length;) {
          int op = ui.op(i);
          int opInfo = ui.opInfo(i);
          if (prologOffset < ui.codeOffsetAt(i)) {
            i += windowsSlots(ui, i);
            continue;
          }
          switch (op) {
            case UWOP_PUSH_NONVOL -> fr.push(opInfo);
            case UWOP_ALLOC_LARGE -> {
              long size = slot(ui, ++i);
              if (opInfo != 0) size += slot(ui, ++i) << 16;
              else size *= 8;
              fr.add(size & 0xFFFFFFFFL);
            }
            case UWOP_ALLOC_SMALL -> fr.add(8L * opInfo + 8);
            case UWOP_SET_FPREG -> fr.setFrame(ui.frameRegister(), -16L * ui.frameOffset());
            case UWOP_SAVE_NONVOL -> fr.save(opInfo, establisher, 8L * slot(ui, ++i));
            case UWOP_SAVE_NONVOL_FAR -> {
              long off = slot(ui, i + 1) | slot(ui, i + 2) << 16;
              i += 2;
              fr.save(opInfo, establisher, off);
            }
            case UWOP_EPILOG -> i++;
            case UWOP_SPARE_CODE -> throw new Unsupported("UWOP_SPARE_CODE, which Windows does not accept");
            case UWOP_SAVE_XMM128 -> fr.saveXmm(opInfo, establisher, 16L * slot(ui, ++i));
            case UWOP_SAVE_XMM128_FAR -> {
              long off = slot(ui, i + 1) | slot(ui, i + 2) << 16;
              i += 2;
              fr.saveXmm(opInfo, establisher, off);
            }
            case UWOP_PUSH_MACHFRAME -> fr.machineFrame(opInfo != 0);
            default -> throw new Unsupported("unwind operation " + op + ", which Windows does not accept");
          }
          i++;
        }
      }
      return fr.row(rva);
    }

    private static long slot(UnwindInfo ui, int i) {
      if (i >= ui.slots.length) throw new Unsupported("an unwind code reads past the " + ui.slots.length + " slots of its array");
      return ui.slots[i];
    }

    /**
     * The virtual unwind's state: the stack pointer (Windows register {@code spBase} plus {@code
     * spOffset}, unknown after a machine frame loaded it), where the caller's registers were saved.
     */
    private final class Frame {
      int spBase = Loc.RSP;
      long spOffset;
      boolean spLoaded;
      /** By DWARF number (0-15 integer registers, 17-32 xmm0-15): where the caller's value is, when set. */
      final boolean[] isSaved = new boolean[DWARF_XMM0 + 16];
      final int[] savedBase = new int[DWARF_XMM0 + 16];
      final long[] savedOffset = new long[DWARF_XMM0 + 16];
      Loc ripAt;
      Loc cfaAt;

      private void saveAt(int dwarf, int base, long offset) {
        isSaved[dwarf] = true;
        savedBase[dwarf] = base;
        savedOffset[dwarf] = offset;
      }

      private void checkSp() {
        if (spLoaded) throw new Unsupported("unwind codes after UWOP_PUSH_MACHFRAME change the stack pointer");
      }

      void add(long n) {
        checkSp();
        spOffset += n;
      }

      void setFrame(int register, long offset) {
        checkSp();
        spBase = register;
        spOffset = offset;
      }

      void push(int reg) {
        if (reg == Loc.RSP) throw new Unsupported("a push of RSP");
        checkSp();
        saveAt(DWARF[reg], spBase, spOffset);
        spOffset += 8;
      }

      void save(int reg, Loc establisher, long offset) {
        if (reg == Loc.RSP) throw new Unsupported("a save of RSP");
        saveAt(DWARF[reg], establisher.base(), establisher.offset() + (offset & 0xFFFFFFFFL));
      }

      void saveXmm(int reg, Loc establisher, long offset) {
        saveAt(DWARF_XMM0 + reg, establisher.base(), establisher.offset() + (offset & 0xFFFFFFFFL));
      }

      void machineFrame(boolean errorCode) {
        checkSp();
        long base = spOffset + (errorCode ? 8 : 0);
        ripAt = new Loc(spBase, base);
        cfaAt = new Loc(spBase, base + 24);
        spLoaded = true;
      }

      UnwindRow row(long rva) {
        SortedMap<Integer, RegisterRule> rules = new TreeMap<>();
        CfaRule cfa;
        Loc rip;
        if (cfaAt != null) {
          cfa = new CfaRule.Expression(breg(cfaAt, true));
          rip = ripAt;
        } else {
          cfa = new CfaRule.RegisterOffset(DWARF[spBase], spOffset + 8);
          rip = new Loc(spBase, spOffset);
        }
        for (int r = 0; r < isSaved.length; r++) if (isSaved[r]) rules.put(r, rule(cfa, new Loc(savedBase[r], savedOffset[r])));
        rules.put(DWARF_RIP, rule(cfa, rip));
        return new UnwindRow(reader.imageBase + rva, cfa, rules);
      }
    }

    /** The rule of a value saved at {@code loc}: at CFA + n when the CFA is the same register plus an offset, else at an expression's address. */
    private static RegisterRule rule(CfaRule cfa, Loc loc) {
      if (cfa instanceof CfaRule.RegisterOffset ro && ro.register() == DWARF[loc.base()]) return new RegisterRule.Offset(loc.offset() - ro.offset());
      return new RegisterRule.Expression(breg(loc, false));
    }

    /** DW_OP_bregN offset, then DW_OP_deref when {@code deref}. */
    private static byte[] breg(Loc loc, boolean deref) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(0x70 + DWARF[loc.base()]);
      long v = loc.offset();
      while (true) {
        int b = (int) (v & 0x7f);
        v >>= 7;
        boolean done = (v == 0 && (b & 0x40) == 0) || (v == -1 && (b & 0x40) != 0);
        out.write(done ? b : b | 0x80);
        if (done) break;
      }
      if (deref) out.write(0x06);
      return out.toByteArray();
    }
  }
}
