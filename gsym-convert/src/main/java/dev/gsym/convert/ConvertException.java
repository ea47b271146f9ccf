package dev.gsym.convert;

/**
 * A conversion ended by one of its side inputs, as llvm-gsymutil's "DWARF conversion failed":
 * the {@code --symtab-file} (it cannot be read, or lacks the input's architecture) or the call-site
 * YAML file (it cannot be read or parsed, or names what the GSYM lacks). The message is llvm's;
 * {@link #diagnostics()} holds the YAML reader's diagnostics that precede it.
 */
public final class ConvertException extends RuntimeException {
  /** The diagnostics printed before the message, or empty. */
  private final String diagnostics;

  /** A failure with llvm's {@code message} and no diagnostics. */
  public ConvertException(String message) {
    this("", message, null);
  }

  /** A failure with LLVM's {@code diagnostics} (empty for none) before {@code message}. */
  public ConvertException(String diagnostics, String message, Throwable cause) {
    super(message, cause, false, false);
    this.diagnostics = diagnostics;
  }

  /** The diagnostics printed before the message (the YAML reader's), or empty. */
  public String diagnostics() {
    return diagnostics;
  }
}
