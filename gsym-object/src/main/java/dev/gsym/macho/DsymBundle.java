package dev.gsym.macho;

import dev.gsym.GsymFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The DWARF files of a {@code .dSYM} bundle, found as llvm's
 * MachOObjectFile::findDsymObjectMembers finds them: for a directory whose name ends in
 * {@code .dSYM}, every regular file in {@code Contents/Resources/DWARF}.
 */
public final class DsymBundle {
  private DsymBundle() {}

  /**
   * The bundle's DWARF files (sorted by name: llvm takes the directory's order), or an empty list
   * when {@code path} is not a {@code .dSYM} directory.
   *
   * @throws GsymFormatException (no offset) with llvm's message when the bundle has no
   *     {@code Contents/Resources/DWARF} directory or nothing in it
   */
  public static List<Path> members(String path) throws IOException {
    Path p;
    try {
      p = Path.of(path).normalize();
    } catch (java.nio.file.InvalidPathException e) {
      return List.of();
    }
    Path name = p.getFileName();
    if (!Files.isDirectory(p) || name == null || !name.toString().endsWith(".dSYM") || name.toString().equals(".dSYM")) {
      return List.of();
    }
    Path dwarf = p.resolve("Contents").resolve("Resources").resolve("DWARF");
    if (!Files.isDirectory(dwarf)) {
      throw new GsymFormatException(path, -1, path + ": expected directory 'Contents/Resources/DWARF' in dSYM bundle");
    }
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dwarf)) {
      for (Path f : (Iterable<Path>) s.sorted()::iterator) {
        if (Files.isRegularFile(f)) {
          out.add(f);
        }
      }
    }
    if (out.isEmpty()) throw new GsymFormatException(path, -1, path + ": no objects found in dSYM bundle");
    return out;
  }
}
