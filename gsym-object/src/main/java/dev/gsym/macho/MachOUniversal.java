package dev.gsym.macho;

import dev.gsym.io.ByteView;
import dev.gsym.object.internal.MappedFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A universal (fat or fat64) Mach-O file mapped once: its checked {@link FatHeader} and its slices,
 * each read as a {@link MachOFile} on demand (they share this file's mapping: close the slices
 * before this).
 */
public final class MachOUniversal implements AutoCloseable {
  private final Arena arena;
  private final ByteView file;
  private final FatHeader header;

  private MachOUniversal(Arena arena, ByteView file) {
    this.arena = arena;
    this.file = file;
    this.header = FatHeader.read(file);
  }

  /** Maps {@code path} (which {@link dev.gsym.object.FileKind#sniff} must recognise as {@code MACH_O_UNIVERSAL}) and checks its header. */
  public static MachOUniversal open(Path path) throws IOException {
    Arena arena = Arena.ofShared();
    try {
      return new MachOUniversal(arena, new ByteView(MappedFiles.map(path, arena), 0, ByteOrder.BIG_ENDIAN, path.toString()));
    } catch (RuntimeException | IOException e) {
      arena.close();
      throw e;
    }
  }

  /** A universal file in memory (tests). */
  public static MachOUniversal of(byte[] bytes, String source) {
    return new MachOUniversal(null, ByteView.of(bytes, ByteOrder.BIG_ENDIAN, source));
  }

  public List<FatArch> archs() {
    return header.archs();
  }

  public FatHeader header() {
    return header;
  }

  /**
   * The first slice whose {@link FatArch#archFlagName() -arch flag name} is {@code name}, as llvm's
   * MachOUniversalBinary::getObjectForArch finds it; empty if none (or {@code name} is empty).
   */
  public Optional<FatArch> archNamed(String name) {
    if (name.isEmpty()) return Optional.empty();
    return header.archs().stream().filter(a -> a.archFlagName().equals(name)).findFirst();
  }

  /**
   * The Mach-O of slice {@code arch}, named after the universal file (as llvm names it); errors
   * give offsets in the universal file.
   */
  public MachOFile slice(FatArch arch) {
    return MachOFile.ofSlice(file, arch, file.source());
  }

  @Override
  public void close() {
    if (arena != null) arena.close();
  }
}
