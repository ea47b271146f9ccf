package dev.gsym.symbolize;

/**
 * Where a module lives in a GSYM store, as a '/'-separated path relative to the store's root,
 * without extension (docs/symbolize.md, "Store layout"): {@code <id[0:2]>/<id[2:]>} for a build-id
 * (lower-case hex), {@code breakpad/<debug file>/<DEBUG ID>} for a Breakpad module.
 */
record ModuleKey(String path) {
  static ModuleKey ofBuildId(String hex) {
    String rest = hex.substring(2);
    return new ModuleKey(hex.substring(0, 2) + "/" + (rest.isEmpty() ? "-" : rest));
  }

  static ModuleKey ofBreakpad(String debugFile, String debugId) {
    return new ModuleKey("breakpad/" + debugFile + "/" + debugId);
  }

  /** The directory part ("ab", "breakpad/xul.pdb"). */
  String directory() {
    return path.substring(0, path.lastIndexOf('/'));
  }

  /** The last component: the file name without extension. */
  String name() {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
