package dev.gsym.cli.symbolize;

import dev.gsym.GsymFormatException;
import dev.gsym.Progress;
import dev.gsym.TextBuffer;
import dev.gsym.cli.ChunkPipeline;
import dev.gsym.cli.ProgressBar;
import dev.gsym.cli.Session;
import dev.gsym.demangle.Demangler;
import dev.gsym.format.FileEntry;
import dev.gsym.read.GsymReader;
import dev.gsym.read.LookupFrames;
import dev.gsym.symbolize.AddressAdjustment;
import dev.gsym.symbolize.Frame;
import dev.gsym.symbolize.Merged;
import dev.gsym.read.SourceLine;
import dev.gsym.symbolize.ModuleRef;
import dev.gsym.symbolize.Symbolized;
import dev.gsym.symbolize.Symbolizer;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * The inputs of {@code gsymutil symbolize}, answered in input order: gathered into {@link Chunk}s
 * of up to {@value #CHUNK_SIZE}, each chunk symbolized (one {@link Symbolizer} batch) and printed
 * into its own buffer on {@code threads} workers ({@link ChunkPipeline}), and the buffers
 * written strictly in submission order by the thread that reads the input. What depends on the
 * order of the inputs is done while writing: llvm-symbolizer reports a module that cannot be
 * opened once, at its first request (and later requests of it get an empty answer), while a
 * build-id that cannot be found is reported each time; errors go to stderr in their place among
 * the answers.
 *
 * <p>Without {@code --stack}, a chunk's addresses are looked up in the modules' GSYMs directly
 * ({@link Symbolizer#openModules}, {@link GsymReader#lookup(long, LookupFrames)}) and printed from
 * names and paths encoded once per string-table offset and file index ({@link Texts}): no object
 * per answer. A module that does not open, and a record found malformed, are answered through
 * {@link Symbolizer#symbolize} (its messages, and its replacement of a corrupt store entry).
 */
final class SymbolizeBatches extends ChunkPipeline<SymbolizeBatches.Chunk> {
  static final int CHUNK_SIZE = 2048;

  /** {@code --functions}. */
  enum Functions {
    NONE,
    SHORT,
    LINKAGE,
  }

  /** {@code --basenames} / {@code --relativenames} / neither. */
  enum Paths {
    ABSOLUTE,
    BASENAME,
    RELATIVE,
  }

  /**
   * How answers are made.
   *
   * @param adjustVma subtracted from every address before the lookup ({@code --adjust-vma})
   * @param stack {@code --stack}: the inputs are call stacks separated by empty inputs (a chunk
   *     holds whole stacks), resolved with {@link Symbolizer#symbolizeStacks}
   */
  record Settings(Functions functions, Paths paths, boolean demangle, boolean inlines, long adjustVma, boolean stack,
      AddressAdjustment adjust) {}

  private final Session session;
  private final PrintStream err;
  private final String tool;
  private final Symbolizer symbolizer;
  private final SymbolizePrinter printer;
  private final Settings settings;
  private final boolean json;
  private final TextBuffer scratch = new TextBuffer(1 << 10);
  private final Demangler demangler = Demangler.llvm();
  /** JSON list: the first element's leading comma is still to be dropped. */
  private boolean dropComma;
  private long answered;
  private final Progress progress;

  SymbolizeBatches(Session session, PrintStream err, String tool, Symbolizer symbolizer, SymbolizePrinter printer,
      Settings settings, int threads, Progress progress) {
    super("gsymutil-symbolize", threads);
    this.progress = progress;
    this.session = session;
    this.err = err;
    this.tool = tool;
    this.symbolizer = symbolizer;
    this.printer = printer;
    this.settings = settings;
    this.json = printer.config().style() == SymbolizePrinter.Style.JSON;
    this.dropComma = json && printer.config().list();
  }

  @Override
  protected Chunk newChunk() {
    return new Chunk();
  }

  @Override
  protected Chunk compute(Chunk c) {
    return c.process(this);
  }

  /** Writes the answers so far to stdout (input is about to block). */
  void flush() {
    session.flush();
  }

  /** Answers written so far. */
  long answered() {
    return answered;
  }

  @Override
  public void close() {
    try {
      super.close();
    } finally {
      eraseProgress();
    }
  }

  /** Erases the progress line (it is drawn again at the next chunk) before text meets stderr. */
  private void eraseProgress() {
    if (progress instanceof ProgressBar bar) bar.close();
  }

  // ------------------------------------------------------------------ writing (input order)

  @Override
  protected void write(Chunk c) {
    TextBuffer out = c.out;
    int from = 0;
    for (int m = 0; m < c.marks; m++) {
      emit(out, from, c.markAt[m]);
      from = c.markAt[m];
      scratch.clear();
      renderMarked(c, c.markItem[m], scratch);
      emit(scratch, 0, scratch.length());
    }
    emit(out, from, out.length());
    answered += c.size;
    progress.update(answered, 0);
  }

  private void emit(TextBuffer b, int from, int to) {
    if (to <= from) return;
    if (dropComma) {
      dropComma = false;
      from++;
    }
    if (from == 0 && to == b.length()) {
      session.write(b);
    } else {
      TextBuffer part = new TextBuffer(to - from);
      part.append(b.array(), from, to - from);
      session.write(part);
    }
  }

  /** An input llvm reports on stderr, in its place: a line that does not parse, or a module error. */
  private void renderMarked(Chunk c, int i, TextBuffer out) {
    SymbolizeInput in = c.inputs[i];
    if (in.error() != null) {
      stderr("'" + in.raw() + "': " + in.error());
      printer.lineInfo(out, new SymbolizePrinter.Request(in.module(), false, 0, null), SymbolizePrinter.LineInfo.EMPTY);
      return;
    }
    SymbolizeModules.Module m = c.modules[i];
    String message = c.failure[i];
    boolean report = c.everyTime[i] || !m.reported;
    m.reported = true;
    SymbolizePrinter.Request r = request(in);
    if (report) {
      if (json) {
        printer.error(out, r, message);
        return;
      }
      stderr("'" + m.name + "': " + message);
    }
    emptyAnswer(out, in, r);
  }

  private void stderr(String line) {
    session.flush(); // llvm's stderr is unbuffered and its stdout flushed: keep the order
    eraseProgress();
    err.println(tool + ": error: " + line);
  }

  // ------------------------------------------------------------------ answers (any thread)

  private static SymbolizePrinter.Request request(SymbolizeInput in) {
    return new SymbolizePrinter.Request(in.module(), in.symbol() == null, in.offset(), in.symbol());
  }

  /** The answer llvm prints for a request without a module, or without what GSYM cannot hold. */
  private void emptyAnswer(TextBuffer out, SymbolizeInput in, SymbolizePrinter.Request r) {
    if (in.symbol() != null) {
      printer.locations(out, r);
      return;
    }
    switch (in.command()) {
      case DATA -> printer.data(out, r);
      case FRAME -> printer.locals(out, r);
      case CODE -> {
        if (settings.inlines) printer.inlining(out, r, List.of());
        else printer.lineInfo(out, r, SymbolizePrinter.LineInfo.EMPTY);
      }
    }
  }

  /** The answer to a request whose module opened. */
  private void answer(TextBuffer out, SymbolizeInput in, SymbolizeModules.Module m, Symbolized s,
      List<SymbolizePrinter.LineInfo> scratchFrames, int[] frameOfRequest) {
    SymbolizePrinter.Request r = request(in);
    if (in.symbol() != null || in.command() != SymbolizeInput.Command.CODE) {
      emptyAnswer(out, in, r);
      return;
    }
    if (!(s instanceof Symbolized.Found f)) {
      // no function there: llvm's one frame without anything
      if (settings.inlines) printer.inlining(out, r, List.of(SymbolizePrinter.LineInfo.EMPTY));
      else printer.lineInfo(out, r, SymbolizePrinter.LineInfo.EMPTY);
      return;
    }
    List<Frame> frames = f.frames();
    long start = f.function().startAddress();
    // the outermost frame as llvm names it from the binary's symbol table (linkage names only;
    // --stack keeps the name its call sites chose among merged functions)
    String outerName = f.function().rawName();
    long outerStart = start;
    String outerFile = null; // a local symbol's STT_FILE name, for a location without a file
    SymbolNames symbols = settings.functions == Functions.LINKAGE && !settings.stack ? m.symbols() : null;
    SymbolNames.Hit hit = symbols == null ? null : symbols.at(f.fileAddress());
    if (hit != null) {
      outerName = hit.name();
      outerStart = hit.address();
      outerFile = hit.file();
    }
    SymbolizePrinter.MergedNote note = settings.stack && f.merged().isPresent() ? note(f.merged().get(), frameOfRequest) : null;
    if (settings.inlines) {
      scratchFrames.clear();
      for (int k = 0; k < frames.size() - 1; k++) {
        Frame fr = frames.get(k);
        scratchFrames.add(lineInfo(fr.rawName(), fr.location(), start));
      }
      scratchFrames.add(lineInfo(outerName, frames.getLast().location(), outerStart, outerFile));
      printer.inlining(out, r, scratchFrames, note);
    } else {
      Frame deepest = frames.getFirst();
      // GNU style prints the deepest frame, as addr2line. Otherwise llvm names the containing
      // function where linkage names are asked for (the symbol table's name over DWARF); GSYM's
      // outermost frame is that function.
      boolean outer = settings.functions == Functions.LINKAGE && printer.config().style() != SymbolizePrinter.Style.GNU
          || frames.size() == 1;
      printer.lineInfo(out, r, outer ? lineInfo(outerName, deepest.location(), outerStart, outerFile)
          : lineInfo(deepest.rawName(), deepest.location(), start), note);
    }
  }

  /**
   * {@code --stack}'s note for a frame with merged functions, the deciding frame
   * numbered among the stack's input lines ({@code frameOfRequest}: request index in the stack to
   * input frame index).
   */
  private SymbolizePrinter.MergedNote note(Merged m, int[] frameOfRequest) {
    Texts t = texts.get();
    List<byte[]> candidates = new ArrayList<>(m.candidates().size());
    for (String n : m.candidates()) candidates.add(t.name(n));
    List<byte[]> chosen = new ArrayList<>(m.chosen().size());
    for (String n : m.chosen()) chosen.add(t.name(n));
    int by = m.callerFrame() < 0 ? -1 : frameOfRequest[m.callerFrame()];
    return new SymbolizePrinter.MergedNote(m.resolution().name().toLowerCase(java.util.Locale.ROOT), by, candidates,
        chosen);
  }

  private SymbolizePrinter.LineInfo lineInfo(String function, SourceLine loc, long start) {
    return lineInfo(function, loc, start, null);
  }

  /** {@code symbolFile}: the file name a symbol table gives where {@code loc} has no file (llvm's), or null. */
  private SymbolizePrinter.LineInfo lineInfo(String function, SourceLine loc, long start, String symbolFile) {
    Texts t = texts.get();
    byte[] name = settings.functions == Functions.NONE ? null : t.name(function);
    String dir = loc.directory();
    String base = loc.fileName();
    byte[] file = null;
    String fileText = null;
    if (settings.paths == Paths.BASENAME ? loc.hasFile() : !(dir.isEmpty() && base.isEmpty())) {
      file = t.file(dir, base);
      if (printer.config().context().enabled()) fileText = file(dir, base);
    } else if (symbolFile != null && dir.isEmpty() && base.isEmpty()) {
      file = printer.encode(symbolFile);
      if (printer.config().context().enabled()) fileText = symbolFile;
    }
    return new SymbolizePrinter.LineInfo(name, file, fileText, loc.line(), true, start);
  }

  /**
   * Names and paths as printed, by the thread that prints them: a module's names and paths repeat
   * across its addresses, so each is demangled, joined and encoded (for JSON: quoted) once.
   */
  private final ThreadLocal<Texts> texts = ThreadLocal.withInitial(Texts::new);

  private final class Texts {
    /** Entries kept before a cache starts over (a few modules' worth of names). */
    private static final int MAX = 1 << 17;
    /** Modules (readers, symbol tables) whose texts are kept before all are dropped. */
    private static final int MAX_MODULES = 1 << 10;
    private final HashMap<String, byte[]> names = new HashMap<>();
    private final HashMap<String, HashMap<String, byte[]>> files = new HashMap<>();
    private int fileCount;
    /** The lookup buffer and the frames of the answer being printed. */
    final LookupFrames lookup = new LookupFrames();
    final SymbolizePrinter.Frames frames = new SymbolizePrinter.Frames();
    /** Per GSYM reader: names by string-table offset, files by file index (offsets are per file). */
    private final IdentityHashMap<GsymReader, ReaderTexts> readers = new IdentityHashMap<>();
    /** Per symbol table: names and STT_FILE names by symbol index. */
    private final IdentityHashMap<SymbolNames, ReaderTexts> symbolTables = new IdentityHashMap<>();

    ReaderTexts of(GsymReader r) {
      ReaderTexts t = readers.get(r);
      if (t == null) {
        if (readers.size() >= MAX_MODULES) readers.clear();
        t = new ReaderTexts();
        readers.put(r, t);
      }
      return t;
    }

    ReaderTexts of(SymbolNames s) {
      ReaderTexts t = symbolTables.get(s);
      if (t == null) {
        if (symbolTables.size() >= MAX_MODULES) symbolTables.clear();
        t = new ReaderTexts();
        symbolTables.put(s, t);
      }
      return t;
    }

    /** The encoded name at string-table offset {@code strp} of {@code r}: demangled once per offset. */
    byte[] name(GsymReader r, ReaderTexts t, int strp) {
      byte[] b = t.names.get(strp);
      if (b == null) {
        String raw = r.string(strp);
        b = printer.encode(settings.demangle ? demangler.demangle(raw) : raw);
        t.names.put(strp, b);
      }
      return b;
    }

    /**
     * The encoded path of file {@code index} of {@code r}; {@link #NO_FILE} if it has neither part,
     * or for index -1 (a frame without a location).
     */
    FileText file(GsymReader r, ReaderTexts t, long index) {
      if (index < 0) return NO_FILE;
      int key = (int) index; // an index addRow checked: below the file count, an int
      FileText f = t.files.get(key);
      if (f == null) {
        FileEntry e = r.file(index);
        String dir = r.string(e.dir());
        String base = r.string(e.base());
        if (dir.isEmpty() && base.isEmpty()) {
          f = NO_FILE;
        } else {
          String text = SymbolizeBatches.this.file(dir, base);
          f = new FileText(printer.encode(text), text);
        }
        t.files.put(key, f);
      }
      return f;
    }

    /** Symbol {@code i}'s encoded name (demangled once per symbol). */
    byte[] symbolName(SymbolNames s, ReaderTexts t, int i) {
      byte[] b = t.names.get(i);
      if (b == null) {
        String raw = s.name(i);
        b = printer.encode(settings.demangle ? demangler.demangle(raw) : raw);
        t.names.put(i, b);
      }
      return b;
    }

    /** The file symbol {@code i}'s STT_FILE symbol names, or {@link #NO_FILE}. */
    FileText symbolFile(SymbolNames s, ReaderTexts t, int i) {
      FileText f = t.files.get(i);
      if (f == null) {
        String text = s.file(i);
        f = text == null ? NO_FILE : new FileText(printer.encode(text), text);
        t.files.put(i, f);
      }
      return f;
    }

    byte[] name(String raw) {
      byte[] b = names.get(raw);
      if (b == null) {
        b = printer.encode(settings.demangle ? demangler.demangle(raw) : raw);
        if (names.size() >= MAX) names.clear();
        names.put(raw, b);
      }
      return b;
    }

    byte[] file(String dir, String base) {
      HashMap<String, byte[]> inDir = files.get(dir);
      if (inDir == null) {
        if (fileCount >= MAX) {
          files.clear();
          fileCount = 0;
        }
        inDir = new HashMap<>();
        files.put(dir, inDir);
      }
      byte[] b = inDir.get(base);
      if (b == null) {
        b = printer.encode(SymbolizeBatches.this.file(dir, base));
        inDir.put(base, b);
        fileCount++;
      }
      return b;
    }
  }

  /** A module's (or symbol table's) encoded texts, by string-table offset or index; one per thread. */
  private static final class ReaderTexts {
    final IntCache<byte[]> names = new IntCache<>(Texts.MAX);
    final IntCache<FileText> files = new IntCache<>(Texts.MAX);
  }

  /** A file as printed ({@link SymbolizePrinter#encode}) and as text (for source lines). */
  private record FileText(byte[] encoded, String text) {}

  /** A file entry without directory and name: no location. */
  private static final FileText NO_FILE = new FileText(null, null);

  /**
   * The answer to a {@code CODE} request whose module is open, from its GSYM: as {@link #answer}
   * prints a {@link Symbolized.Found}, or its one frame without anything when no function covers
   * the address, or null when the record that answers is malformed (the caller asks the symbolizer,
   * which says so or converts the module again).
   *
   * @return false if the record is malformed (nothing written)
   */
  private boolean answerFromGsym(TextBuffer out, SymbolizeInput in, SymbolizeModules.Module m, GsymReader reader,
      Texts t) {
    boolean code = in.symbol() == null && in.command() == SymbolizeInput.Command.CODE;
    long address = in.symbol() == null ? in.offset() - settings.adjustVma : 0;
    LookupFrames lf = t.lookup;
    boolean found;
    try {
      found = reader.lookup(address, lf);
    } catch (GsymFormatException e) {
      return false;
    }
    if (!code) {
      emptyAnswer(out, in, request(in));
      return true;
    }
    byte[] moduleJson = null;
    if (json) {
      moduleJson = m.jsonName;
      if (moduleJson == null) m.jsonName = moduleJson = printer.encode(m.name);
    }
    SymbolizePrinter.Request r = new SymbolizePrinter.Request(in.module(), true, in.offset(), null, moduleJson);
    SymbolizePrinter.Frames frames = t.frames;
    frames.clear();
    if (!found) {
      // no function there: llvm's one frame without anything
      frames.addEmpty();
      printer.frames(out, r, frames, settings.inlines);
      return true;
    }
    ReaderTexts rt = t.of(reader);
    int n = lf.count();
    long start = lf.functionStart();
    boolean names = settings.functions != Functions.NONE;
    // the outermost frame as llvm names it from the binary's symbol table (see answer)
    SymbolNames symbols = settings.functions == Functions.LINKAGE ? m.symbols() : null;
    int hit = symbols == null ? -1 : symbols.indexAt(address);
    ReaderTexts st = hit < 0 ? null : t.of(symbols);
    if (settings.inlines) {
      for (int k = 0; k < n - 1; k++) {
        FileText f = t.file(reader, rt, lf.fileIndex(k));
        frames.add(names ? t.name(reader, rt, lf.nameOffset(k)) : null, f.encoded, contextText(f),
            Integer.toUnsignedLong(lf.line(k)), start);
      }
      addOuter(frames, t, reader, rt, lf, n - 1, n - 1, start, names, symbols, st, hit);
      printer.frames(out, r, frames, true);
    } else {
      boolean outer = settings.functions == Functions.LINKAGE && printer.config().style() != SymbolizePrinter.Style.GNU
          || n == 1;
      if (outer) {
        addOuter(frames, t, reader, rt, lf, n - 1, 0, start, names, symbols, st, hit);
      } else {
        FileText f = t.file(reader, rt, lf.fileIndex(0));
        frames.add(names ? t.name(reader, rt, lf.nameOffset(0)) : null, f.encoded, contextText(f),
            Integer.toUnsignedLong(lf.line(0)), start);
      }
      printer.frames(out, r, frames, false);
    }
    return true;
  }

  /**
   * Adds the outermost function's frame (frame {@code nameFrame}'s function) at frame {@code
   * lineFrame}'s location: named by symbol {@code hit} if there is one (its address as the start,
   * its STT_FILE name where the location has no file), else by GSYM.
   */
  private void addOuter(SymbolizePrinter.Frames frames, Texts t, GsymReader reader, ReaderTexts rt, LookupFrames lf,
      int nameFrame, int lineFrame, long start, boolean names, SymbolNames symbols, ReaderTexts st, int hit) {
    FileText f = t.file(reader, rt, lf.fileIndex(lineFrame));
    byte[] name;
    long outerStart;
    if (hit >= 0) {
      name = names ? t.symbolName(symbols, st, hit) : null;
      outerStart = symbols.address(hit);
      if (f == NO_FILE) f = t.symbolFile(symbols, st, hit);
    } else {
      name = names ? t.name(reader, rt, lf.nameOffset(nameFrame)) : null;
      outerStart = start;
    }
    frames.add(name, f.encoded, contextText(f), Integer.toUnsignedLong(lf.line(lineFrame)), outerStart);
  }

  /** The file's text where source lines are printed, else null (as {@link #lineInfo} gives it). */
  private String contextText(FileText f) {
    return printer.config().context().enabled() ? f.text : null;
  }

  /**
   * The file as llvm-symbolizer-22 prints a GSYM location: the directory and file name joined as
   * {@code sys::path::append} joins them (POSIX), or the file name alone for {@code --basenames}.
   * {@code --relativenames} prints the whole path, as llvm does for GSYM, which does not record
   * compilation directories. (A location without either is printed "??".)
   */
  private String file(String dir, String base) {
    if (settings.paths == Paths.BASENAME) return base;
    if (dir.isEmpty()) return base;
    if (dir.charAt(dir.length() - 1) == '/') {
      int skip = 0;
      while (skip < base.length() && base.charAt(skip) == '/') skip++;
      return dir + base.substring(skip);
    }
    if (!base.isEmpty() && base.charAt(0) == '/') return dir + base;
    return dir + '/' + base;
  }

  /** Up to {@value #CHUNK_SIZE} inputs, and their answers. */
  static final class Chunk implements ChunkPipeline.Chunk {
    final SymbolizeInput[] inputs = new SymbolizeInput[CHUNK_SIZE];
    final SymbolizeModules.Module[] modules = new SymbolizeModules.Module[CHUNK_SIZE];
    /** The module error of a request, set while processing. */
    final String[] failure = new String[CHUNK_SIZE];
    final boolean[] everyTime = new boolean[CHUNK_SIZE];
    int size;
    final TextBuffer out = new TextBuffer(1 << 16);
    /** Inputs rendered while writing, and where in {@link #out} they go. */
    final int[] markAt = new int[CHUNK_SIZE];
    final int[] markItem = new int[CHUNK_SIZE];
    int marks;
    private final List<Symbolizer.Request> requests = new ArrayList<>(CHUNK_SIZE);
    private final int[] requestOf = new int[CHUNK_SIZE];
    private final List<SymbolizePrinter.LineInfo> frames = new ArrayList<>();

    @Override
    public void reset() {
      java.util.Arrays.fill(inputs, 0, size, null);
      java.util.Arrays.fill(modules, 0, size, null);
      java.util.Arrays.fill(failure, 0, size, null);
      size = 0;
      marks = 0;
      firstFrame = 0;
      out.clear();
      requests.clear();
    }

    boolean isFull() {
      return size == CHUNK_SIZE;
    }

    boolean isEmpty() {
      return size == 0;
    }

    int size() {
      return size;
    }

    /** An input: {@code in} null for an empty line; {@code module} null if the input did not parse. */
    void add(SymbolizeInput in, SymbolizeModules.Module module) {
      inputs[size] = in;
      modules[size] = module;
      everyTime[size] = false;
      size++;
    }

    Chunk process(SymbolizeBatches b) {
      return b.settings.stack ? processObjects(b) : processFromGsym(b);
    }

    /** The chunk's modules, each once, and per input its index among them (-1: none). */
    private final int[] moduleOf = new int[CHUNK_SIZE];

    /**
     * Answers without {@code --stack}: the modules opened once for the chunk, each address looked
     * up in its GSYM and printed from encoded texts ({@link #answerFromGsym}); the requests of a
     * module that did not open are answered by the symbolizer, as is a record found malformed.
     */
    private Chunk processFromGsym(SymbolizeBatches b) {
      IdentityHashMap<SymbolizeModules.Module, Integer> index = new IdentityHashMap<>();
      List<ModuleRef> refs = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        moduleOf[i] = -1;
        SymbolizeModules.Module m = modules[i];
        if (m == null || m.ref == null || inputs[i] == null || inputs[i].error() != null) continue;
        Integer k = index.get(m);
        if (k == null) {
          k = refs.size();
          index.put(m, k);
          refs.add(m.ref);
        }
        moduleOf[i] = k;
      }
      List<Symbolizer.OpenModule> open = refs.isEmpty() ? List.of() : b.symbolizer.openModules(refs);
      try {
        // a module that did not open: the symbolizer's answers say why (as processObjects)
        for (int i = 0; i < size; i++) {
          requestOf[i] = -1;
          if (moduleOf[i] < 0 || open.get(moduleOf[i]).found()) continue;
          requestOf[i] = requests.size();
          requests.add(new Symbolizer.Request(modules[i].ref, address(b, inputs[i])));
        }
        List<Symbolized> answers = requests.isEmpty() ? List.of() : b.symbolizer.symbolize(requests);
        Texts t = b.texts.get();
        TextBuffer o = out;
        for (int i = 0; i < size; i++) {
          SymbolizeInput in = inputs[i];
          if (in == null) {
            b.printer.lineInfo(o, new SymbolizePrinter.Request("", false, 0, null), SymbolizePrinter.LineInfo.EMPTY);
            continue;
          }
          SymbolizeModules.Module m = modules[i];
          if (in.error() != null) {
            mark(i);
            continue;
          }
          if (m.ref == null) {
            failure[i] = m.error;
            everyTime[i] = m.byBuildId;
            mark(i);
            continue;
          }
          if (requestOf[i] >= 0) {
            answer(b, i, answers.get(requestOf[i]));
            continue;
          }
          if (!b.answerFromGsym(o, in, m, open.get(moduleOf[i]).reader(), t)) {
            // a malformed record: the symbolizer reports it (or answers from the module converted again)
            answer(b, i, b.symbolizer.symbolize(m.ref, address(b, in)));
          }
        }
      } finally {
        for (Symbolizer.OpenModule m : open) m.close();
      }
      return this;
    }

    private static long address(SymbolizeBatches b, SymbolizeInput in) {
      return in.symbol() == null ? in.offset() - b.settings.adjustVma : 0;
    }

    /** Input {@code i}'s answer {@code s}: printed, or marked to be reported while writing. */
    private void answer(SymbolizeBatches b, int i, Symbolized s) {
      SymbolizeModules.Module m = modules[i];
      switch (s) {
        case Symbolized.ModuleNotFound nf -> {
          failure[i] = m.byBuildId ? SymbolizeModules.NO_BUILD_ID : detail(m, nf.message());
          everyTime[i] = m.byBuildId;
          mark(i);
        }
        case Symbolized.ModuleUnreadable u -> {
          failure[i] = detail(m, u.message());
          mark(i);
        }
        default -> b.answer(out, inputs[i], m, s, frames, null);
      }
    }

    /** Answers through the symbolizer's answer objects ({@code --stack}). */
    private Chunk processObjects(SymbolizeBatches b) {
      for (int i = 0; i < size; i++) {
        requestOf[i] = -1;
        SymbolizeModules.Module m = modules[i];
        if (m == null || m.ref == null) continue;
        SymbolizeInput in = inputs[i];
        requestOf[i] = requests.size();
        long address = in.symbol() == null ? in.offset() - b.settings.adjustVma : 0;
        requests.add(new Symbolizer.Request(m.ref, address));
      }
      List<Symbolized> answers = requests.isEmpty() ? List.of()
          : b.settings.stack ? stacks(b) : b.symbolizer.symbolize(requests);
      TextBuffer o = out;
      for (int i = 0; i < size; i++) {
        SymbolizeInput in = inputs[i];
        if (in == null) {
          if (b.settings.stack) {
            o.append('\n'); // the line between two stacks
            continue;
          }
          // an empty line: llvm answers "unknown" at once, without a module
          b.printer.lineInfo(o, new SymbolizePrinter.Request("", false, 0, null), SymbolizePrinter.LineInfo.EMPTY);
          continue;
        }
        SymbolizeModules.Module m = modules[i];
        if (in.error() != null) {
          mark(i);
          continue;
        }
        if (m.ref == null) {
          failure[i] = m.error;
          everyTime[i] = m.byBuildId;
          mark(i);
          continue;
        }
        Symbolized s = answers.get(requestOf[i]);
        switch (s) {
          case Symbolized.ModuleNotFound nf -> {
            failure[i] = m.byBuildId ? SymbolizeModules.NO_BUILD_ID : detail(m, nf.message());
            everyTime[i] = m.byBuildId;
            mark(i);
          }
          case Symbolized.ModuleUnreadable u -> {
            failure[i] = detail(m, u.message());
            mark(i);
          }
          default -> b.answer(o, in, m, s, frames, b.settings.stack ? frameOfRequest[stackOf[i]] : null);
        }
      }
      return this;
    }

    /**
     * --stack: the number of this chunk's first frame in its stack (not 0 when the chunk holds the
     * continuation of a stack longer than a chunk).
     */
    int firstFrame;

    /** Which stack each input is in, and per stack its requests' frame numbers (--stack). */
    private final int[] stackOf = new int[CHUNK_SIZE];
    private int[][] frameOfRequest = new int[0][];

    /**
     * The answers of {@link #requests} resolved as call stacks: the inputs between empty ones form a
     * stack; an input without a request (it did not parse, or its module could not be opened) is a
     * placeholder in it, keeping its frame number. The continuation of a stack cut into pieces
     * starts with a placeholder for the frame before it: its first frame is a caller.
     */
    private List<Symbolized> stacks(SymbolizeBatches b) {
      List<List<Symbolizer.Request>> stacks = new ArrayList<>();
      List<int[]> frameNumbers = new ArrayList<>();
      List<Symbolizer.Request> stack = new ArrayList<>();
      int[] numbers = new int[size + 1];
      int frame = firstFrame; // a stack cut into pieces goes on numbering its frames
      for (int i = 0; i <= size; i++) {
        if (i == size || inputs[i] == null) {
          if (!stack.isEmpty()) {
            stacks.add(stack);
            frameNumbers.add(java.util.Arrays.copyOf(numbers, stack.size()));
            stack = new ArrayList<>();
          }
          frame = 0;
          if (i < size) stackOf[i] = -1;
          continue;
        }
        if (stack.isEmpty() && frame > 0) {
          numbers[0] = frame - 1;
          stack.add(null);
        }
        stackOf[i] = stacks.size();
        numbers[stack.size()] = frame++;
        stack.add(requestOf[i] >= 0 ? requests.get(requestOf[i]) : null);
      }
      frameOfRequest = frameNumbers.toArray(int[][]::new);
      List<Symbolized> flat = new ArrayList<>(requests.size());
      for (List<Symbolized> answers : b.symbolizer.symbolizeStacks(stacks, b.settings.adjust())) {
        for (Symbolized s : answers) {
          if (s != null) flat.add(s); // a placeholder has no request
        }
      }
      return flat;
    }

    private void mark(int i) {
      markAt[marks] = out.length();
      markItem[marks++] = i;
    }

    /** The symbolizer's message without the module in front (llvm names it itself). */
    private static String detail(SymbolizeModules.Module m, String message) {
      for (String prefix : new String[] {m.ref.toString() + ": ", m.name + ": "}) {
        if (message.startsWith(prefix)) return message.substring(prefix.length());
      }
      return message;
    }
  }
}
