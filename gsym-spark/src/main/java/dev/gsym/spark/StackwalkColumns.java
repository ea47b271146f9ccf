package dev.gsym.spark;

import dev.gsym.ByteStrings;
import dev.gsym.stackwalk.CallStack;
import dev.gsym.stackwalk.CodeModule;
import dev.gsym.stackwalk.CodeModules;
import dev.gsym.stackwalk.FrameTrust;
import dev.gsym.stackwalk.ProcessState;
import dev.gsym.stackwalk.StackFrame;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.ArraySeq;

/**
 * The rows of the stack walking job (docs/spark.md, "StackwalkJob"), one per dump: the crash, the
 * crashing (or dump-requesting) thread's frames as Breakpad's processor finds them, inlined frames
 * included, and the modules. Names and paths are made well-formed UTF-8 ({@code
 * ByteStrings.wellFormed}), as Parquet strings are UTF-8.
 */
final class StackwalkColumns {
  private StackwalkColumns() {}

  static final String OK = "ok";
  static final String FAILED = "failed";

  static final StructType FRAME = new StructType()
      .add("trust", DataTypes.StringType, false)
      .add("module", DataTypes.StringType, true)
      .add("function", DataTypes.StringType, true)
      .add("file", DataTypes.StringType, true)
      .add("line", DataTypes.LongType, true)
      .add("address", DataTypes.LongType, false)
      .add("module_offset", DataTypes.LongType, true)
      .add("function_offset", DataTypes.LongType, true);

  static final StructType MODULE = new StructType()
      .add("code_file", DataTypes.StringType, false)
      .add("code_id", DataTypes.StringType, false)
      .add("debug_file", DataTypes.StringType, false)
      .add("debug_id", DataTypes.StringType, false)
      .add("version", DataTypes.StringType, false)
      .add("base", DataTypes.LongType, false)
      .add("size", DataTypes.LongType, false);

  static final StructType SCHEMA = new StructType()
      .add("dump", DataTypes.StringType, false)
      .add("status", DataTypes.StringType, false)
      .add("error", DataTypes.StringType, true)
      .add("os", DataTypes.StringType, true)
      .add("cpu", DataTypes.StringType, true)
      .add("crash_reason", DataTypes.StringType, true)
      .add("crash_address", DataTypes.LongType, true)
      .add("crashing_thread", DataTypes.IntegerType, true)
      .add("thread_id", DataTypes.LongType, true)
      .add("frames", DataTypes.createArrayType(FRAME, false), true)
      .add("modules", DataTypes.createArrayType(MODULE, false), true)
      .add("threads", DataTypes.IntegerType, true)
      .add("millis", DataTypes.LongType, false);

  /** The row of a dump that was walked. */
  static Row ok(String dump, ProcessState s, long millis) {
    int t = s.requestingThread();
    CallStack stack = t < 0 ? null : s.threads().get(t);
    Row[] frames = null;
    if (stack != null) {
      List<StackFrame> fs = stack.frames();
      frames = new Row[fs.size()];
      for (int i = 0; i < frames.length; i++) frames[i] = frame(fs.get(i));
    }
    Row[] modules = null;
    CodeModules ms = s.modules();
    if (ms != null) {
      List<CodeModule> list = ms.inAddressOrder();
      modules = new Row[list.size()];
      for (int i = 0; i < modules.length; i++) {
        CodeModule m = list.get(i);
        modules[i] = RowFactory.create(text(m.codeFile()), text(m.codeIdentifier()), text(m.debugFile()),
            text(m.debugIdentifier()), text(m.version()), m.base(), m.size());
      }
    }
    return RowFactory.create(dump, OK, null, text(s.system().os()), text(s.system().cpu()),
        s.crashed() ? text(s.crash().reason()) : null, s.crashed() ? s.crash().address() : null, t < 0 ? null : t,
        stack == null ? null : stack.threadId(), frames == null ? null : ArraySeq.unsafeWrapArray(frames),
        modules == null ? null : ArraySeq.unsafeWrapArray(modules), s.threads().size(), millis);
  }

  /** The row of a dump that could not be walked: {@code error} says why (the file, the offset, the problem). */
  static Row failed(String dump, String error, long millis) {
    return RowFactory.create(dump, FAILED, error, null, null, null, null, null, null, null, null, null, millis);
  }

  private static Row frame(StackFrame f) {
    CodeModule m = f.module();
    long address = f.returnAddress();
    boolean hasFunction = !f.function().isEmpty();
    boolean hasFile = !f.sourceFile().isEmpty();
    return RowFactory.create(trust(f.trust()), m == null ? null : text(CodeModule.fileName(m.codeFile())),
        hasFunction ? text(f.function()) : null, hasFile ? text(f.sourceFile()) : null, hasFile ? (long) f.sourceLine() : null,
        address, m == null ? null : address - m.base(), hasFunction ? address - f.functionBase() : null);
  }

  /** The trust levels as rust-minidump names them in its JSON ({@code trust}); {@code leaf} is Breakpad's own. */
  static String trust(FrameTrust t) {
    return switch (t) {
      case NONE -> "none";
      case SCAN -> "scan";
      case CFI_SCAN -> "cfi_scan";
      case FP -> "frame_pointer";
      case CFI -> "cfi";
      case PREWALKED -> "prewalked";
      case CONTEXT -> "context";
      case INLINE -> "inline";
      case LEAF -> "leaf";
    };
  }

  private static String text(String s) {
    return ByteStrings.wellFormed(s);
  }
}
