package dev.gsym.convert.internal;

import dev.gsym.GsymFormatException;
import dev.gsym.convert.ConvertException;
import dev.gsym.macho.FatArch;
import dev.gsym.macho.MachOFile;
import dev.gsym.macho.MachOUniversal;
import dev.gsym.object.FileKind;
import dev.gsym.object.ObjectFile;
import dev.gsym.object.ObjectFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The file of {@code --symtab-file FILE}, opened as llvm main's llvm-gsymutil opens it
 * (handleFileConversionToGSYM, resolveSymtabObject): a single-architecture object file, or a
 * universal Mach-O file whose slice of the converted object's architecture gives the symbols.
 * Failures are {@link ConvertException}s carrying llvm main's message (the command line prefixes
 * "DWARF conversion failed: : ").
 */
public sealed interface SymtabFile extends AutoCloseable {
  /** The path as given on the command line (llvm's messages and "Using symbol table file:" name it so). */
  String path();

  /**
   * The object file to take the symbols from for an input of architecture {@code arch} (llvm
   * main's name: {@link #archName}), opened once and owned by this file.
   */
  ObjectFile forArch(String arch);

  @Override
  void close();

  /** A single-architecture object file: it must be of the input's architecture. */
  record Thin(String path, ObjectFile file) implements SymtabFile {
    @Override
    public ObjectFile forArch(String arch) {
      String own = archName(file);
      if (!own.equals(arch)) {
        throw new ConvertException("architecture mismatch: input file is " + arch + " but symbol table file '" + path + "' is " + own);
      }
      return file;
    }

    @Override
    public void close() {
      file.close();
    }
  }

  /** A universal file: the slice named as the input's architecture (MachOUniversalBinary::getMachOObjectForArch). */
  final class Universal implements SymtabFile {
    private final String path;
    private final MachOUniversal fat;
    private final Map<FatArch, MachOFile> opened = new HashMap<>();

    Universal(String path, MachOUniversal fat) {
      this.path = path;
      this.fat = fat;
    }

    @Override
    public String path() {
      return path;
    }

    @Override
    public ObjectFile forArch(String arch) {
      FatArch a = fat.archNamed(arch).orElseThrow(
          () -> new ConvertException("symbol table file '" + path + "' does not contain architecture '" + arch + "'"));
      MachOFile slice = opened.get(a);
      if (slice != null) return slice;
      try {
        slice = fat.slice(a);
      } catch (GsymFormatException e) {
        // llvm reports a slice it cannot read as a missing architecture; the reader's error says what is wrong
        throw new ConvertException(e.detail());
      }
      opened.put(a, slice);
      return slice;
    }

    @Override
    public void close() {
      opened.values().forEach(MachOFile::close);
      fat.close();
    }
  }

  /**
   * llvm main's getArchitectureName: a Mach-O file by its CPU type and subtype ("arm64", "armv7",
   * "x86_64h", the names of universal files' slices), any other by its triple ("x86_64", "aarch64").
   */
  static String archName(ObjectFile f) {
    return f instanceof MachOFile m ? m.universalArchName() : f.archName();
  }

  /**
   * Opens {@code path}, or returns null for none. Errors as llvm main's: "failed to open symbol
   * table file 'F'" when it cannot be read, the object reader's own message when it is no object
   * file ("The file was not recognized as a valid object file") or a damaged one, and "symbol table
   * file 'F' is not a valid object file" for an archive (a binary llvm knows that has no symbols of
   * its own).
   */
  static SymtabFile open(String path) {
    if (path == null) return null;
    Path p;
    try {
      p = Path.of(path);
    } catch (InvalidPathException e) {
      throw new ConvertException("failed to open symbol table file '" + path + "'");
    }
    if (!Files.isRegularFile(p) || !Files.isReadable(p)) throw new ConvertException("failed to open symbol table file '" + path + "'");
    try {
      FileKind kind = FileKind.sniff(p);
      if (kind == FileKind.ARCHIVE) throw new ConvertException("symbol table file '" + path + "' is not a valid object file");
      if (kind == FileKind.MACH_O_UNIVERSAL) {
        return new Universal(path, MachOUniversal.open(p));
      }
      return new Thin(path, ObjectFiles.open(p));
    } catch (GsymFormatException e) {
      throw new ConvertException(e.detail());
    } catch (IOException e) {
      throw new ConvertException("failed to open symbol table file '" + path + "'");
    }
  }
}
