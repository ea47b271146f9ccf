package dev.gsym.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Needs llvm-22's tools (an oracle, a compiler or an assembler), which CI installs; without them
 * a reported skip. Tagged {@code llvm}: the quick test profile ({@code ./mvnw -Pquick verify},
 * docs/reliability.md "Test tiers") leaves it out; the README's test command and CI run it.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("llvm")
public @interface NeedsLlvm {}
