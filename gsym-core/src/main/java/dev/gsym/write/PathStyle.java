package dev.gsym.write;

/** How {@link GsymCreator#insertFile} splits a path into directory and base name (LLVM's rules). */
public enum PathStyle {
  /** Separator '/'. */
  POSIX,
  /** Separators '\' and '/'; a drive ("C:") stays in the directory. */
  WINDOWS;

  boolean isSeparator(char c) {
    return c == '/' || (this == WINDOWS && c == '\\');
  }

  /** Index where the file name starts. */
  private int filenameStart(String p) {
    int i = p.length() - 1;
    while (i >= 0 && !isSeparator(p.charAt(i)) && !(this == WINDOWS && p.charAt(i) == ':')) i--;
    return i + 1;
  }

  /** LLVM's sys::path::filename (for paths not ending in a separator). */
  String filename(String p) {
    if (p.isEmpty()) return "";
    if (p.length() > 1 && isSeparator(p.charAt(p.length() - 1))) return ".";
    return p.substring(filenameStart(p));
  }

  /** LLVM's sys::path::parent_path. */
  String parentPath(String p) {
    if (p.isEmpty()) return "";
    int end;
    if (p.length() > 1 && isSeparator(p.charAt(p.length() - 1))) {
      end = p.length() - 1;
    } else {
      end = filenameStart(p);
    }
    int rootEnd = rootEnd(p);
    // Drop separators before the file name, but keep a root directory separator.
    while (end > rootEnd && isSeparator(p.charAt(end - 1))) end--;
    if (end == 0 && rootEnd > 0) end = rootEnd;
    return p.substring(0, end);
  }

  /** Length of the root (drive and/or leading separator), 0 if relative without drive. */
  private int rootEnd(String p) {
    int i = 0;
    if (this == WINDOWS && p.length() >= 2 && p.charAt(1) == ':') i = 2;
    if (i < p.length() && isSeparator(p.charAt(i))) i++;
    return i;
  }
}
