package dev.gsym.profile;

import com.google.perftools.profiles.ProfileProto.Label;
import com.google.perftools.profiles.ProfileProto.Location;
import com.google.perftools.profiles.ProfileProto.Mapping;
import com.google.perftools.profiles.ProfileProto.Profile;
import com.google.perftools.profiles.ProfileProto.Sample;
import com.google.perftools.profiles.ProfileProto.ValueType;
import dev.gsym.GsymFormatException;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code perf script} output read into a pprof profile, not yet symbolized, for {@link
 * ProfileSymbolizer}: one mapping per executable mapping of the mmap events, one location per
 * (mapping, address), one sample per perf sample (values: the sample count and, when the
 * {@code period} field is there, the period), labelled with the process name, pid and tid.
 *
 * <p>Read the text with {@link dev.gsym.ByteStrings#CHARSET}, so that paths keep their bytes.
 *
 * <p>The fields needed ({@code docs/profiles.md}): {@code perf script -F comm,pid,tid,period,ip,dso
 * --show-mmap-events} ({@code time}, {@code event} and {@code sym} may be there too and are
 * ignored); the build-ids come from {@code perf buildid-list} (path to build-id), and without them
 * modules are found by path. perf prints a user-space address relative to its mapping's file
 * offset (its {@code map_ip}); an address inside a mapping is read as a process address. Frames
 * after the first hold return addresses and, as the pprof format expects, point one byte back,
 * into their call; except the first user-space frame of a sample taken in the kernel (the address
 * where the process entered it).
 */
public final class PerfScript {
  private PerfScript() {}

  /** Reads {@code perf buildid-list} output: {@code HEX PATH} lines, to a map from path to build-id. */
  public static Map<String, String> readBuildIds(BufferedReader in, String source) throws IOException {
    Map<String, String> out = new HashMap<>();
    String line;
    long n = 0;
    while ((line = in.readLine()) != null) {
      n++;
      if (line.isBlank()) continue;
      String t = line.strip();
      int sp = t.indexOf(' ');
      if (sp <= 0 || ProfileSymbolizer.hexBuildId(t.substring(0, sp)) == null) {
        throw new GsymFormatException(source, -1, "line " + n + ": expected 'BUILD-ID PATH' (perf buildid-list), got '"
            + clip(line) + "'");
      }
      out.put(t.substring(sp + 1).strip(), t.substring(0, sp).toLowerCase(java.util.Locale.ROOT));
    }
    return out;
  }

  /** True if {@code head} (the first lines of a text) looks like perf script output. */
  public static boolean looksLike(List<String> head) {
    for (String l : head) {
      if (l.contains("PERF_RECORD_") || FRAME.matcher(l).matches()) return true;
    }
    return false;
  }

  /** An mmap event: [start, start + length) maps the file from {@code pgoff}. */
  private record Mmap(long pid, long start, long length, long pgoff, String path) {}

  private static final Pattern MMAP = Pattern.compile(
      "PERF_RECORD_MMAP2? (-?\\d+)/-?\\d+: \\[0x([0-9a-f]+)\\(0x([0-9a-f]+)\\) @ (?:0x)?([0-9a-f]+)(?: [^\\]]*)?\\]: (\\S+) (.*)$");
  private static final Pattern PID = Pattern.compile("\\s(\\d+)(?:/(\\d+))?\\s");
  private static final Pattern FRAME = Pattern.compile("^\\s+([0-9a-f]+)(?:\\s.*?)?\\s\\((.*)\\)\\s*$");

  /**
   * Reads {@code perf script} output.
   *
   * @param buildIds build-id (hex) of each file path, from {@code perf buildid-list}; may be empty
   * @throws GsymFormatException naming the line for text that is not perf script's
   */
  public static PprofProfile read(BufferedReader in, String source, Map<String, String> buildIds) throws IOException {
    List<Mmap> mmaps = new ArrayList<>();
    Map<String, Long> strings = new LinkedHashMap<>();
    strings.put("", 0L);
    Profile.Builder p = Profile.newBuilder();
    Map<Mmap, Long> mappingIds = new HashMap<>();
    Map<List<Long>, Long> locationIds = new HashMap<>();
    boolean periods = false;
    List<Sample.Builder> samples = new ArrayList<>();
    String line;
    long n = 0;
    // the sample being read
    Sample.Builder sample = null;
    long samplePid = -1;
    boolean previousKernel = false;
    int frames = 0;
    while ((line = in.readLine()) != null) {
      n++;
      if (line.isBlank()) {
        sample = null;
        continue;
      }
      if (!Character.isWhitespace(line.charAt(0))) {
        sample = null;
        if (line.contains("PERF_RECORD_")) {
          Matcher m = MMAP.matcher(line);
          if (m.find()) {
            String prot = m.group(5);
            // PERF_RECORD_MMAP (kernel) has no protection field: "x" there
            if (prot.contains("x")) {
              mmaps.add(new Mmap(Long.parseLong(m.group(1)), Long.parseUnsignedLong(m.group(2), 16),
                  Long.parseUnsignedLong(m.group(3), 16), Long.parseUnsignedLong(m.group(4), 16), m.group(6).trim()));
            }
          }
          continue; // other side-band events
        }
        // COMM PID/TID [TIME:] [PERIOD] [EVENT:] ...; the command name may hold spaces
        Matcher pid = PID.matcher(" " + line + " ");
        samplePid = -1;
        String comm = "";
        String rest = line;
        sample = Sample.newBuilder();
        if (pid.find()) {
          samplePid = Long.parseLong(pid.group(1));
          comm = line.substring(0, Math.max(0, pid.start() - 1 + 1)).trim();
          rest = line.substring(Math.min(line.length(), pid.end() - 1));
        }
        long period = -1;
        for (String tok : rest.trim().split("\\s+")) {
          if (tok.endsWith(":")) continue; // the time or the event
          if (!tok.isEmpty() && tok.chars().allMatch(Character::isDigit) && tok.length() < 19) {
            period = Long.parseLong(tok);
            break;
          }
        }
        if (period >= 0) {
          periods = true;
          sample.addValue(1).addValue(period);
        } else {
          sample.addValue(1);
        }
        if (!comm.isEmpty()) {
          sample.addLabel(Label.newBuilder().setKey(intern(strings, "comm")).setStr(intern(strings, comm)));
        }
        if (samplePid >= 0) {
          sample.addLabel(Label.newBuilder().setKey(intern(strings, "pid")).setNum(samplePid));
          if (pid.group(2) != null) {
            sample.addLabel(Label.newBuilder().setKey(intern(strings, "tid")).setNum(Long.parseLong(pid.group(2))));
          }
        }
        samples.add(sample);
        previousKernel = false;
        frames = 0;
        continue;
      }
      if (sample == null) throw new GsymFormatException(source, -1, "line " + n + ": a frame outside a sample: '"
          + clip(line) + "'");
      Matcher f = FRAME.matcher(line);
      if (!f.matches()) {
        throw new GsymFormatException(source, -1, "line " + n + ": expected 'ADDRESS (DSO)' (perf script -F ip,dso),"
            + " got '" + clip(line) + "'");
      }
      long addr;
      try {
        addr = Long.parseUnsignedLong(f.group(1), 16);
      } catch (NumberFormatException e) {
        throw new GsymFormatException(source, -1, "line " + n + ": address out of range: '" + clip(line) + "'");
      }
      String dso = f.group(2);
      boolean kernel = dso.startsWith("[kernel") || dso.startsWith("[guest.kernel") || addr < 0;
      Mmap map = find(mmaps, samplePid, dso, addr);
      long runtime = addr;
      if (map != null && !(Long.compareUnsigned(addr, map.start) >= 0
          && Long.compareUnsigned(addr, map.start + map.length) < 0)) {
        runtime = map.start + (addr - map.pgoff); // perf's map_ip (file offset) back to the process address
      }
      // a return address points after its call: one byte back, as pprof's format expects
      boolean enteredKernel = !kernel && previousKernel; // where the process was, not a return address
      if (frames > 0 && !enteredKernel) runtime--;
      previousKernel = kernel;
      long mappingId = 0;
      if (map != null) {
        Mmap key = new Mmap(0, map.start, map.length, map.pgoff, map.path);
        Long id = mappingIds.get(key);
        if (id == null) {
          id = (long) mappingIds.size() + 1;
          mappingIds.put(key, id);
          Mapping.Builder mb = Mapping.newBuilder().setId(id).setMemoryStart(map.start)
              .setMemoryLimit(map.start + map.length).setFileOffset(map.pgoff).setFilename(intern(strings, map.path));
          String bid = buildIds.get(map.path);
          if (bid != null) mb.setBuildId(intern(strings, bid));
          p.addMapping(mb);
        }
        mappingId = id;
      } else if (!dso.equals("[unknown]")) {
        // no mmap event for it: a mapping of the file at offset 0, so that its address stays known
        Mmap key = new Mmap(-1, 0, 0, 0, dso);
        Long id = mappingIds.get(key);
        if (id == null) {
          id = (long) mappingIds.size() + 1;
          mappingIds.put(key, id);
          Mapping.Builder mb = Mapping.newBuilder().setId(id).setFilename(intern(strings, dso));
          String bid = buildIds.get(dso);
          if (bid != null) mb.setBuildId(intern(strings, bid));
          p.addMapping(mb);
        }
        mappingId = id;
      }
      List<Long> lkey = List.of(mappingId, runtime);
      Long lid = locationIds.get(lkey);
      if (lid == null) {
        lid = (long) locationIds.size() + 1;
        locationIds.put(lkey, lid);
        p.addLocation(Location.newBuilder().setId(lid).setMappingId(mappingId).setAddress(runtime));
      }
      sample.addLocationId(lid);
      frames++;
    }
    p.addSampleType(ValueType.newBuilder().setType(intern(strings, "samples")).setUnit(intern(strings, "count")));
    if (periods) {
      p.addSampleType(ValueType.newBuilder().setType(intern(strings, "period")).setUnit(intern(strings, "events")));
    }
    for (Sample.Builder s : samples) {
      if (s.getLocationIdCount() == 0) continue;
      if (periods && s.getValueCount() == 1) s.addValue(0);
      p.addSample(s);
    }
    // the strings as the bytes perf printed (read through ByteStrings' charset), not re-encoded
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    p.build().writeTo(bytes);
    com.google.protobuf.CodedOutputStream out = com.google.protobuf.CodedOutputStream.newInstance(bytes);
    for (String s : strings.keySet()) out.writeByteArray(PprofProfile.STRING_TABLE, dev.gsym.ByteStrings.encode(s));
    out.flush();
    return PprofProfile.read(bytes.toByteArray(), source);
  }

  private static String clip(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }

  private static long intern(Map<String, Long> strings, String s) {
    Long i = strings.get(s);
    if (i == null) {
      i = (long) strings.size();
      strings.put(s, i);
    }
    return i;
  }

  /** The mmap of {@code dso} holding {@code addr} as a process address or as a file offset, the process's first. */
  private static Mmap find(List<Mmap> mmaps, long pid, String dso, long addr) {
    Mmap byOffset = null;
    for (int pass = 0; pass < 2; pass++) {
      for (int i = mmaps.size() - 1; i >= 0; i--) {
        Mmap m = mmaps.get(i);
        if (!m.path.equals(dso) && !(dso.equals("[kernel.kallsyms]") && m.path.startsWith("[kernel.kallsyms]"))) continue;
        if (pass == 0 && m.pid != pid && m.pid != -1) continue;
        if (Long.compareUnsigned(addr, m.start) >= 0 && Long.compareUnsigned(addr, m.start + m.length) < 0) return m;
        if (byOffset == null && Long.compareUnsigned(addr, m.pgoff) >= 0
            && Long.compareUnsigned(addr, m.pgoff + m.length) < 0) {
          byOffset = m;
        }
      }
      if (byOffset != null) return byOffset;
    }
    return null;
  }
}
