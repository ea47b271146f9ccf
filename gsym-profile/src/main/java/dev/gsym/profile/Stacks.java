package dev.gsym.profile;

import com.google.perftools.profiles.ProfileProto.Function;
import com.google.perftools.profiles.ProfileProto.Line;
import com.google.perftools.profiles.ProfileProto.Location;
import com.google.perftools.profiles.ProfileProto.Mapping;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A profile's samples as distinct stacks of frames with their summed value: what collapsed stacks
 * (Brendan Gregg's folded format, {@code root;caller;leaf 42}) and flame graphs show. A location
 * with several lines is several frames (its inlined functions are frames of their own, marked
 * {@link StackFrame#inlined()}); a location without lines is one frame named after its module and
 * offset ({@code libc.so.6+0x9a2b0}), or its address without a module.
 */
public final class Stacks {
  /**
   * One frame.
   *
   * @param name the function as shown (demangled if the profile's names are)
   * @param file its source file, "" if unknown
   * @param line the line in it, 0 if unknown
   * @param module the mapping's file name ("" without one)
   * @param inlined true if inlined into the frame below it (its caller)
   * @param symbolized false for a frame named after its address (no function known)
   */
  public record StackFrame(String name, String file, long line, String module, boolean inlined, boolean symbolized) {}

  /**
   * One distinct stack.
   *
   * @param frames root first
   * @param value the summed sample value
   */
  public record Stack(List<StackFrame> frames, long value) {}

  private final List<Stack> stacks;
  private final String valueType;
  private final long total;

  private Stacks(List<Stack> stacks, String valueType) {
    this.stacks = List.copyOf(stacks);
    this.valueType = valueType;
    long t = 0;
    for (Stack s : stacks) t += s.value;
    this.total = t;
  }

  /**
   * Reads collapsed stacks (Brendan Gregg's folded format): one {@code root;caller;leaf VALUE} line
   * per stack, the value after the last space; empty lines are skipped. Frames are taken as named
   * (already symbolized).
   *
   * @throws dev.gsym.GsymFormatException for a line without a value, naming the line
   */
  public static Stacks readCollapsed(java.io.BufferedReader in, String source) throws IOException {
    List<Stack> out = new ArrayList<>();
    Map<String, StackFrame> frames = new HashMap<>();
    String line;
    long n = 0;
    while ((line = in.readLine()) != null) {
      n++;
      if (line.isBlank()) continue;
      int sp = line.lastIndexOf(' ');
      long value;
      try {
        if (sp <= 0) throw new NumberFormatException();
        value = Long.parseLong(line.substring(sp + 1).trim());
        if (value < 0) throw new NumberFormatException();
      } catch (NumberFormatException e) {
        throw new dev.gsym.GsymFormatException(source, -1, "line " + n + ": expected 'frame;frame;... COUNT', got '"
            + (line.length() > 80 ? line.substring(0, 80) + "..." : line) + "'");
      }
      List<StackFrame> fs = new ArrayList<>();
      for (String name : line.substring(0, sp).split(";", -1)) {
        fs.add(frames.computeIfAbsent(name, x -> new StackFrame(x, "", 0, "", false, true)));
      }
      out.add(new Stack(fs, value));
    }
    return new Stacks(out, "samples");
  }

  /** Stacks given directly. */
  public static Stacks of(List<Stack> stacks, String valueType) {
    return new Stacks(stacks, valueType);
  }

  /**
   * The stacks of {@code profile}, valued by sample type {@code sampleIndex} (-1: the last, pprof's
   * default when the profile names none).
   */
  public static Stacks of(PprofProfile profile, int sampleIndex) {
    List<String[]> types = profile.sampleTypes();
    int index = sampleIndex < 0 ? types.size() - 1 : sampleIndex;
    if (index < 0 || index >= types.size()) {
      throw new IllegalArgumentException("sample type " + sampleIndex + " of " + types.size());
    }
    Map<Long, Location> locations = new HashMap<>();
    for (Location l : profile.locations()) locations.put(l.getId(), l);
    Map<Long, Mapping> mappings = new HashMap<>();
    for (Mapping m : profile.mappings()) mappings.put(m.getId(), m);
    Map<Long, Function> functions = new HashMap<>();
    for (Function f : profile.functions()) functions.put(f.getId(), f);
    // sum by location-id sequence first: samples repeat stacks, names are made once per stack
    Map<Key, long[]> sums = new HashMap<>();
    int k = index;
    profile.forEachSample((ids, values, labels) -> {
      if (values[k] == 0) return;
      sums.computeIfAbsent(new Key(ids.clone()), x -> new long[1])[0] += values[k];
    });
    Map<Long, List<StackFrame>> frameCache = new HashMap<>();
    List<Stack> out = new ArrayList<>(sums.size());
    for (Map.Entry<Key, long[]> e : sums.entrySet()) {
      long[] ids = e.getKey().ids;
      List<StackFrame> frames = new ArrayList<>();
      for (int i = ids.length - 1; i >= 0; i--) {
        frames.addAll(frameCache.computeIfAbsent(ids[i],
            id -> framesOf(profile, locations.get(id), mappings, functions)));
      }
      out.add(new Stack(frames, e.getValue()[0]));
    }
    // a stable order: by frames, as the folded format is usually sorted (each stack's text made
    // once, not at every comparison)
    record Keyed(String text, Stack stack) {}
    List<Keyed> keyed = new ArrayList<>(out.size());
    for (Stack s : out) keyed.add(new Keyed(folded(s), s));
    keyed.sort(java.util.Comparator.comparing(Keyed::text));
    out.clear();
    for (Keyed x : keyed) out.add(x.stack());
    String[] t = types.get(index);
    return new Stacks(out, t[0] + (t[1].isEmpty() ? "" : " (" + t[1] + ")"));
  }

  /** A location's frames, outermost first (pprof lists them innermost first). */
  private static List<StackFrame> framesOf(PprofProfile p, Location l, Map<Long, Mapping> mappings,
      Map<Long, Function> functions) {
    Mapping m = mappings.get(l.getMappingId());
    String module = m == null ? "" : baseName(p.string(m.getFilename()));
    List<StackFrame> out = new ArrayList<>();
    List<Line> lines = l.getLineList();
    if (lines.isEmpty()) {
      String name = m == null ? "0x" + Long.toHexString(l.getAddress())
          : (module.isEmpty() ? "?" : module) + "+0x" + Long.toHexString(l.getAddress() - m.getMemoryStart() + m.getFileOffset());
      out.add(new StackFrame(name, "", 0, module, false, false));
      return out;
    }
    for (int i = lines.size() - 1; i >= 0; i--) {
      Function f = functions.get(lines.get(i).getFunctionId());
      String name = f == null ? "?" : p.string(f.getName());
      if (name.isEmpty() && f != null) name = p.string(f.getSystemName());
      // pprof lists a location's lines innermost first: all but the last are inlined into the next
      out.add(new StackFrame(name, f == null ? "" : p.string(f.getFilename()), lines.get(i).getLine(), module,
          i < lines.size() - 1, true));
    }
    return List.copyOf(out);
  }

  private static String baseName(String file) {
    int slash = file.lastIndexOf('/');
    return file.substring(slash + 1);
  }

  private record Key(long[] ids) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Arrays.equals(ids, k.ids);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(ids);
    }
  }

  public List<Stack> stacks() {
    return stacks;
  }

  /** What the values count, e.g. {@code samples (count)}. */
  public String valueType() {
    return valueType;
  }

  /** The sum of all stacks' values. */
  public long total() {
    return total;
  }

  /**
   * A frame as the folded format writes it: its name, with {@code ;} (the separator) and line breaks
   * replaced by {@code :} and spaces.
   */
  static String foldedName(StackFrame f) {
    String n = f.name();
    if (n.indexOf(';') < 0 && n.indexOf('\n') < 0 && n.indexOf('\r') < 0) return n;
    return n.replace(';', ':').replace('\n', ' ').replace('\r', ' ');
  }

  private static String folded(Stack s) {
    StringBuilder sb = new StringBuilder();
    for (StackFrame f : s.frames) {
      if (!sb.isEmpty()) sb.append(';');
      sb.append(foldedName(f));
    }
    return sb.toString();
  }

  /**
   * Writes the stacks in the folded format, one {@code root;...;leaf VALUE} line per distinct text
   * (stacks that differ only in lines or addresses are summed), sorted.
   */
  public void writeCollapsed(Writer out) throws IOException {
    String previous = null;
    long sum = 0;
    for (Stack s : stacks) {
      String text = folded(s);
      if (text.equals(previous)) {
        sum += s.value;
        continue;
      }
      if (previous != null) writeLine(out, previous, sum);
      previous = text;
      sum = s.value;
    }
    if (previous != null) writeLine(out, previous, sum);
    out.flush();
  }

  private static void writeLine(Writer out, String text, long value) throws IOException {
    out.write(text);
    out.write(' ');
    out.write(Long.toString(value));
    out.write('\n');
  }
}
