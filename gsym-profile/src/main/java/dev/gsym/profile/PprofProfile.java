package dev.gsym.profile;

import com.google.perftools.profiles.ProfileProto.Function;
import com.google.perftools.profiles.ProfileProto.Line;
import com.google.perftools.profiles.ProfileProto.Location;
import com.google.perftools.profiles.ProfileProto.Mapping;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import dev.gsym.ByteStrings;
import dev.gsym.GsymFormatException;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;

/**
 * A pprof profile ({@code profile.proto}), read so that it can be symbolized and written back with
 * everything else untouched: mappings, locations and functions are parsed (pprof's generated
 * classes, unknown fields kept), the string table is kept as bytes (pprof's Go reader does not
 * require UTF-8, so neither do we), and every other field (samples, sample types, comments,
 * labels, period, times) stays as the bytes it was and is written back as it was.
 *
 * <p>Reading checks what Go's pprof checks when it parses a profile: well-formed protobuf, string
 * indices inside the string table, mapping, function and location ids that exist, samples whose
 * values match the sample types. A malformed or truncated profile is one {@link
 * GsymFormatException} naming the source and the byte offset (in the decompressed bytes). Nothing is
 * allocated in proportion to a declared size: lengths are checked against the bytes present, and
 * the decompressed size is bounded ({@link #read(InputStream, String, long)}).
 *
 * <p>Instances are immutable; symbolizing makes a new one ({@link ProfileSymbolizer}).
 */
public final class PprofProfile {
  /** Default bound of a decompressed profile: 1 GiB. */
  public static final long DEFAULT_MAX_BYTES = 1L << 30;
  /** Largest bound: a Java array. */
  public static final long MAX_BYTES = Integer.MAX_VALUE - 16;

  static final int SAMPLE_TYPE = 1;
  static final int SAMPLE = 2;
  static final int MAPPING = 3;
  static final int LOCATION = 4;
  static final int FUNCTION = 5;
  static final int STRING_TABLE = 6;
  static final int PERIOD_TYPE = 11;
  static final int COMMENT = 13;

  private final String source;
  private final boolean gzipped;
  /** The decompressed bytes read; raw fields and strings point into it. */
  private final byte[] data;
  /** Top-level fields kept as bytes: {fieldNumber, start, payloadStart, end} each. */
  private final int[] raw;
  private final int rawCount;
  private final int sampleTypes;
  private final long samples;
  private final List<Mapping> mappings;
  private final List<Location> locations;
  private final List<Function> functions;
  /** The string table read: offsets and lengths into {@link #data}. */
  private final int[] stringOffset;
  private final int[] stringLength;
  private final int readStrings;
  /** Strings added after reading. */
  private final List<byte[]> addedStrings;

  private PprofProfile(String source, boolean gzipped, byte[] data, int[] raw, int rawCount, int sampleTypes,
      long samples, List<Mapping> mappings, List<Location> locations, List<Function> functions, int[] stringOffset,
      int[] stringLength, int readStrings, List<byte[]> addedStrings) {
    this.source = source;
    this.gzipped = gzipped;
    this.data = data;
    this.raw = raw;
    this.rawCount = rawCount;
    this.sampleTypes = sampleTypes;
    this.samples = samples;
    this.mappings = List.copyOf(mappings);
    this.locations = List.copyOf(locations);
    this.functions = List.copyOf(functions);
    this.stringOffset = stringOffset;
    this.stringLength = stringLength;
    this.readStrings = readStrings;
    this.addedStrings = List.copyOf(addedStrings);
  }

  /** Reads a profile, gzipped or not (recognised by its first bytes), of at most {@link #DEFAULT_MAX_BYTES}. */
  public static PprofProfile read(byte[] bytes, String source) {
    return read(bytes, source, DEFAULT_MAX_BYTES);
  }

  /**
   * Reads a profile, gzipped or not.
   *
   * @param maxBytes bound of the decompressed profile, at most {@link #MAX_BYTES}
   * @throws GsymFormatException if the bytes are not a well-formed profile, or decompress to more
   *     than {@code maxBytes}
   */
  public static PprofProfile read(byte[] bytes, String source, long maxBytes) {
    checkBound(maxBytes);
    if (isGzip(bytes)) {
      try {
        return read(new java.io.ByteArrayInputStream(bytes), source, maxBytes);
      } catch (IOException e) {
        throw new UncheckedIOException(e); // not reached: a byte array does not fail
      }
    }
    if (bytes.length > maxBytes) {
      throw new GsymFormatException(source, -1, "profile is " + bytes.length + " bytes, over the limit of " + maxBytes);
    }
    return parse(bytes, bytes.length, source, false);
  }

  /**
   * Reads a profile from a stream, gzipped or not.
   *
   * @throws GsymFormatException if the bytes are not a well-formed profile, the gzip stream is
   *     corrupt or cut short, or the profile decompresses to more than {@code maxBytes}
   * @throws IOException if reading the stream fails
   */
  public static PprofProfile read(InputStream in, String source, long maxBytes) throws IOException {
    checkBound(maxBytes);
    java.io.PushbackInputStream p = new java.io.PushbackInputStream(in, 2);
    byte[] head = p.readNBytes(2);
    p.unread(head);
    boolean gz = isGzip(head);
    Bounded out = new Bounded(maxBytes);
    try (InputStream body = gz ? new GZIPInputStream(p, 64 * 1024) : p) {
      body.transferTo(out);
    } catch (EOFException e) {
      throw new GsymFormatException(source, -1, "gzip stream cut short (truncated profile)");
    } catch (ZipException e) {
      throw new GsymFormatException(source, -1, "corrupt gzip stream: " + e.getMessage());
    } catch (IOException e) {
      if (!out.tooLarge) throw e;
      throw new GsymFormatException(source, -1, (gz ? "profile decompresses to" : "profile is") + " more than "
          + maxBytes + " bytes (the limit)");
    }
    return parse(out.buffer(), out.size(), source, gz);
  }

  private static void checkBound(long maxBytes) {
    if (maxBytes <= 0 || maxBytes > MAX_BYTES) throw new IllegalArgumentException("maxBytes must be 1 to " + MAX_BYTES);
  }

  static boolean isGzip(byte[] b) {
    return b.length >= 2 && (b[0] & 0xff) == 0x1f && (b[1] & 0xff) == 0x8b;
  }

  /** A growable buffer that refuses to grow past a bound. */
  private static final class Bounded extends OutputStream {
    private final long max;
    private byte[] buf = new byte[64 * 1024];
    private int count;
    boolean tooLarge;

    Bounded(long max) {
      this.max = max;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if ((long) count + len > max) {
        tooLarge = true;
        throw new IOException("too large");
      }
      if (count + len > buf.length) buf = Arrays.copyOf(buf, (int) Math.min(MAX_BYTES, Math.max((long) buf.length * 2, count + len)));
      System.arraycopy(b, off, buf, count, len);
      count += len;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    byte[] buffer() {
      return buf;
    }

    int size() {
      return count;
    }
  }

  private static PprofProfile parse(byte[] data, int length, String source, boolean gzipped) {
    return new Parser(data, length, source, gzipped).parse();
  }

  /** The top-level reader. */
  private static final class Parser {
    final byte[] data;
    final int length;
    final String source;
    final boolean gzipped;
    int[] raw = new int[64];
    int rawCount;
    final List<Mapping> mappings = new ArrayList<>();
    final List<Location> locations = new ArrayList<>();
    final List<Function> functions = new ArrayList<>();
    int[] stringOffset = new int[256];
    int[] stringLength = new int[256];
    int strings;
    int sampleTypes;
    long samples;

    Parser(byte[] data, int length, String source, boolean gzipped) {
      this.data = data;
      this.length = length;
      this.source = source;
      this.gzipped = gzipped;
    }

    PprofProfile parse() {
      CodedInputStream in = CodedInputStream.newInstance(data, 0, length);
      in.setSizeLimit(Integer.MAX_VALUE);
      int start = 0;
      try {
        while (!in.isAtEnd()) {
          start = in.getTotalBytesRead();
          int tag = in.readTag();
          int field = WireFormat.getTagFieldNumber(tag);
          int wire = WireFormat.getTagWireType(tag);
          if (field == 0) throw new GsymFormatException(source, start, "field number 0");
          switch (field) {
            case MAPPING, LOCATION, FUNCTION, STRING_TABLE -> {
              if (wire != WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                throw new GsymFormatException(source, start, "field " + field + " has wire type " + wire + ", not 2");
              }
              int len = in.readRawVarint32();
              int at = in.getTotalBytesRead();
              if (len < 0 || len > length - at) {
                throw new GsymFormatException(source, start, "field " + field + " of " + Integer.toUnsignedString(len)
                    + " bytes runs past the end of the profile (truncated?)");
              }
              switch (field) {
                case MAPPING -> mappings.add(Mapping.parser().parseFrom(data, at, len));
                case LOCATION -> locations.add(Location.parser().parseFrom(data, at, len));
                case FUNCTION -> functions.add(Function.parser().parseFrom(data, at, len));
                default -> addString(at, len);
              }
              in.skipRawBytes(len);
            }
            default -> {
              if (field == SAMPLE_TYPE) sampleTypes++;
              if (field == SAMPLE) samples++;
              int payload = wire == WireFormat.WIRETYPE_LENGTH_DELIMITED ? -1 : in.getTotalBytesRead();
              if (!in.skipField(tag)) throw new GsymFormatException(source, start, "unexpected end-group tag");
              if (payload < 0) payload = payloadStart(start);
              addRaw(field, start, payload, in.getTotalBytesRead());
            }
          }
        }
      } catch (InvalidProtocolBufferException e) {
        throw new GsymFormatException(source, start, "malformed protobuf: " + e.getMessage());
      } catch (IOException e) {
        throw new GsymFormatException(source, start, "malformed protobuf: " + e.getMessage());
      }
      PprofProfile p = new PprofProfile(source, gzipped, data, raw, rawCount, sampleTypes, samples, mappings, locations,
          functions, stringOffset, stringLength, strings, List.of());
      p.validate();
      return p;
    }

    /** The offset of a length-delimited field's payload, given the offset of its tag. */
    private int payloadStart(int tagStart) {
      int i = tagStart;
      while ((data[i] & 0x80) != 0) i++; // tag varint
      i++;
      while ((data[i] & 0x80) != 0) i++; // length varint
      return i + 1;
    }

    private void addString(int at, int len) {
      if (strings == stringOffset.length) {
        stringOffset = Arrays.copyOf(stringOffset, strings * 2);
        stringLength = Arrays.copyOf(stringLength, strings * 2);
      }
      stringOffset[strings] = at;
      stringLength[strings] = len;
      strings++;
    }

    private void addRaw(int field, int start, int payload, int end) {
      if (rawCount * 4 + 4 > raw.length) raw = Arrays.copyOf(raw, raw.length * 2);
      raw[rawCount * 4] = field;
      raw[rawCount * 4 + 1] = start;
      raw[rawCount * 4 + 2] = payload;
      raw[rawCount * 4 + 3] = end;
      rawCount++;
    }
  }

  /** The wire type of raw field {@code r}, from its tag. */
  private int wireType(int r) {
    return data[raw[r * 4 + 1]] & 7;
  }

  /** Checks the references Go's pprof checks when it reads a profile. */
  private void validate() {
    long n = stringCount();
    if (n == 0) throw new GsymFormatException(source, -1, "empty string table (string_table[0] must be \"\")");
    if (stringLength[0] != 0) throw new GsymFormatException(source, stringOffset[0], "string_table[0] is not \"\"");
    Map<Long, Mapping> mappingIds = new HashMap<>();
    for (Mapping m : mappings) {
      if (m.getId() == 0) throw new GsymFormatException(source, -1, "mapping with id 0");
      if (mappingIds.put(m.getId(), m) != null) throw new GsymFormatException(source, -1, "duplicate mapping id " + m.getId());
      checkString(m.getFilename(), "mapping " + m.getId() + " filename");
      checkString(m.getBuildId(), "mapping " + m.getId() + " build_id");
    }
    Map<Long, Function> functionIds = new HashMap<>();
    for (Function f : functions) {
      if (f.getId() == 0) throw new GsymFormatException(source, -1, "function with id 0");
      if (functionIds.put(f.getId(), f) != null) throw new GsymFormatException(source, -1, "duplicate function id " + f.getId());
      checkString(f.getName(), "function " + f.getId() + " name");
      checkString(f.getSystemName(), "function " + f.getId() + " system_name");
      checkString(f.getFilename(), "function " + f.getId() + " filename");
    }
    // sample types and the period type: ValueType messages naming strings
    for (int r = 0; r < rawCount; r++) {
      int field = raw[r * 4];
      if (field != SAMPLE_TYPE && field != PERIOD_TYPE) continue;
      if (raw[r * 4 + 2] == raw[r * 4 + 1] || wireType(r) != WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        throw new GsymFormatException(source, raw[r * 4 + 1], "field " + field + " is not a message");
      }
      try {
        var vt = com.google.perftools.profiles.ProfileProto.ValueType.parser().parseFrom(data, raw[r * 4 + 2],
            raw[r * 4 + 3] - raw[r * 4 + 2]);
        checkString(vt.getType(), (field == SAMPLE_TYPE ? "a sample" : "the period") + " type");
        checkString(vt.getUnit(), (field == SAMPLE_TYPE ? "a sample" : "the period") + " unit");
      } catch (InvalidProtocolBufferException e) {
        throw new GsymFormatException(source, raw[r * 4 + 1], "malformed " + (field == SAMPLE_TYPE ? "sample" : "period")
            + " type: " + e.getMessage());
      }
    }
    // the location ids, sorted: samples name them millions of times, so no boxed set
    long[] locationIds = new long[locations.size()];
    for (int i = 0; i < locationIds.length; i++) locationIds[i] = locations.get(i).getId();
    java.util.Arrays.sort(locationIds);
    for (int i = 0; i < locationIds.length; i++) {
      if (locationIds[i] == 0) throw new GsymFormatException(source, -1, "location with id 0");
      if (i > 0 && locationIds[i] == locationIds[i - 1]) {
        throw new GsymFormatException(source, -1, "duplicate location id " + locationIds[i]);
      }
    }
    // ids 1..n in some order (as every profiler writes them): a range check is enough
    boolean dense = locationIds.length == 0 || locationIds[locationIds.length - 1] == locationIds.length;
    for (Location l : locations) {
      if (l.getMappingId() != 0 && !mappingIds.containsKey(l.getMappingId())) {
        throw new GsymFormatException(source, -1, "location " + l.getId() + " names mapping " + l.getMappingId()
            + ", which does not exist");
      }
      for (Line line : l.getLineList()) {
        if (!functionIds.containsKey(line.getFunctionId())) {
          throw new GsymFormatException(source, -1, "location " + l.getId() + " names function " + line.getFunctionId()
              + ", which does not exist");
        }
      }
    }
    // samples: location ids that exist, one value per sample type; labels and comments name strings
    forEachSample((ids, values, labelStrings) -> {
      for (long id : ids) {
        if (dense ? id < 1 || id > locationIds.length : java.util.Arrays.binarySearch(locationIds, id) < 0) {
          throw new GsymFormatException(source, -1, "a sample names location " + Long.toUnsignedString(id)
              + ", which does not exist");
        }
      }
      if (values.length != sampleTypes) {
        throw new GsymFormatException(source, -1, "a sample has " + values.length + " values for " + sampleTypes
            + " sample types");
      }
      for (long s : labelStrings) checkString(s, "a sample label");
    });
  }

  private void checkString(long index, String what) {
    if (index < 0 || index >= stringCount()) {
      throw new GsymFormatException(source, -1, what + " is string " + index + ", outside the string table of "
          + stringCount());
    }
  }

  /** Receives the samples of {@link #forEachSample}. */
  @FunctionalInterface
  public interface SampleVisitor {
    /**
     * One sample.
     *
     * @param locationIds leaf first; the array is reused for the next sample
     * @param values one per sample type; reused too
     * @param labelStrings string indices named by the sample's labels (keys, strings, units); reused
     */
    void sample(long[] locationIds, long[] values, long[] labelStrings);
  }

  /** Calls {@code v} for every sample, in file order. */
  public void forEachSample(SampleVisitor v) {
    LongBuffer ids = new LongBuffer();
    LongBuffer values = new LongBuffer();
    LongBuffer labels = new LongBuffer();
    for (int r = 0; r < rawCount; r++) {
      if (raw[r * 4] != SAMPLE) continue;
      if (wireType(r) != WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        throw new GsymFormatException(source, raw[r * 4 + 1], "a sample that is not a message");
      }
      int payload = raw[r * 4 + 2];
      int end = raw[r * 4 + 3];
      ids.clear();
      values.clear();
      labels.clear();
      try {
        CodedInputStream in = CodedInputStream.newInstance(data, payload, end - payload);
        while (!in.isAtEnd()) {
          int tag = in.readTag();
          int field = WireFormat.getTagFieldNumber(tag);
          int wire = WireFormat.getTagWireType(tag);
          if ((field == 1 || field == 2) && wire == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
            int len = in.readRawVarint32();
            if (len < 0 || len > in.getBytesUntilLimit()) throw new InvalidProtocolBufferException("length runs past the end of the sample (truncated)");
            int limit = in.pushLimit(len);
            while (in.getBytesUntilLimit() > 0) (field == 1 ? ids : values).add(in.readRawVarint64());
            in.popLimit(limit);
          } else if ((field == 1 || field == 2) && wire == WireFormat.WIRETYPE_VARINT) {
            (field == 1 ? ids : values).add(in.readRawVarint64());
          } else if (field == 3 && wire == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
            int len = in.readRawVarint32();
            if (len < 0 || len > in.getBytesUntilLimit()) throw new InvalidProtocolBufferException("length runs past the end of the sample (truncated)");
            int limit = in.pushLimit(len);
            while (!in.isAtEnd()) {
              int t = in.readTag();
              int f = WireFormat.getTagFieldNumber(t);
              if ((f == 1 || f == 2 || f == 4) && WireFormat.getTagWireType(t) == WireFormat.WIRETYPE_VARINT) {
                labels.add(in.readRawVarint64());
              } else if (!in.skipField(t)) {
                throw new InvalidProtocolBufferException("unexpected end-group tag");
              }
            }
            in.popLimit(limit);
          } else if (!in.skipField(tag)) {
            throw new InvalidProtocolBufferException("unexpected end-group tag");
          }
        }
      } catch (IOException e) {
        throw new GsymFormatException(source, payload, "malformed sample: " + e.getMessage());
      }
      v.sample(ids.array(), values.array(), labels.array());
    }
  }

  /** A growable long array whose {@link #array()} is exact-length (reused per length). */
  private static final class LongBuffer {
    private long[] a = new long[64];
    private int n;
    private final Map<Integer, long[]> exact = new HashMap<>();

    void clear() {
      n = 0;
    }

    void add(long v) {
      if (n == a.length) a = Arrays.copyOf(a, n * 2);
      a[n++] = v;
    }

    long[] array() {
      long[] e = n < 256 ? exact.computeIfAbsent(n, long[]::new) : new long[n];
      System.arraycopy(a, 0, e, 0, n);
      return e;
    }
  }

  /** Where the profile came from, as named to {@code read}. */
  public String source() {
    return source;
  }

  /** True if the profile read was gzipped. */
  public boolean gzipped() {
    return gzipped;
  }

  /** The number of samples. */
  public long sampleCount() {
    return samples;
  }

  /** The number of sample types (values per sample). */
  public int sampleTypeCount() {
    return sampleTypes;
  }

  public List<Mapping> mappings() {
    return mappings;
  }

  public List<Location> locations() {
    return locations;
  }

  public List<Function> functions() {
    return functions;
  }

  /** The number of strings in the string table. */
  public int stringCount() {
    return readStrings + addedStrings.size();
  }

  /** String {@code i} of the string table, its bytes decoded by {@link ByteStrings}. */
  public String string(long i) {
    if (i < 0 || i >= stringCount()) throw new IndexOutOfBoundsException("string " + i + " of " + stringCount());
    int k = (int) i;
    if (k < readStrings) return ByteStrings.decode(data, stringOffset[k], stringLength[k]);
    return ByteStrings.decode(addedStrings.get(k - readStrings));
  }

  /** The sample types as (type, unit) strings. */
  public List<String[]> sampleTypes() {
    List<String[]> out = new ArrayList<>();
    for (int r = 0; r < rawCount; r++) {
      if (raw[r * 4] != SAMPLE_TYPE) continue;
      try {
        var vt = com.google.perftools.profiles.ProfileProto.ValueType.parser().parseFrom(data, raw[r * 4 + 2],
            raw[r * 4 + 3] - raw[r * 4 + 2]);
        out.add(new String[] {safeString(vt.getType()), safeString(vt.getUnit())});
      } catch (InvalidProtocolBufferException e) {
        throw new GsymFormatException(source, raw[r * 4 + 1], "malformed sample type: " + e.getMessage());
      }
    }
    return out;
  }

  private String safeString(long i) {
    return i >= 0 && i < stringCount() ? string(i) : "";
  }

  /**
   * A copy with other mappings, locations and functions and more strings (appended to the string
   * table: indices already used stay valid). Everything else is kept as it was.
   */
  PprofProfile with(List<Mapping> mappings, List<Location> locations, List<Function> functions, List<byte[]> moreStrings) {
    List<byte[]> added = new ArrayList<>(addedStrings);
    added.addAll(moreStrings);
    return new PprofProfile(source, gzipped, data, raw, rawCount, sampleTypes, samples, mappings, locations, functions,
        stringOffset, stringLength, readStrings, added);
  }

  /** The profile's bytes, gzipped if {@code gzip} (pprof's on-disk form). */
  public byte[] toByteArray(boolean gzip) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(data.length / 2 + 1024);
    try {
      writeTo(out, gzip);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** Writes the profile, gzipped if {@code gzip}. */
  public void writeTo(OutputStream out, boolean gzip) throws IOException {
    if (gzip) {
      GZIPOutputStream z = new GZIPOutputStream(out, 64 * 1024);
      writeRaw(z);
      z.finish();
    } else {
      writeRaw(out);
    }
    out.flush();
  }

  private void writeRaw(OutputStream os) throws IOException {
    CodedOutputStream out = CodedOutputStream.newInstance(os, 64 * 1024);
    for (int r = 0; r < rawCount; r++) {
      out.writeRawBytes(data, raw[r * 4 + 1], raw[r * 4 + 3] - raw[r * 4 + 1]);
    }
    for (Mapping m : mappings) out.writeMessage(MAPPING, m);
    for (Location l : locations) out.writeMessage(LOCATION, l);
    for (Function f : functions) out.writeMessage(FUNCTION, f);
    for (int i = 0; i < readStrings; i++) {
      out.writeTag(STRING_TABLE, WireFormat.WIRETYPE_LENGTH_DELIMITED);
      out.writeUInt32NoTag(stringLength[i]);
      out.writeRawBytes(data, stringOffset[i], stringLength[i]);
    }
    for (byte[] s : addedStrings) out.writeByteArray(STRING_TABLE, s);
    out.flush();
  }
}
