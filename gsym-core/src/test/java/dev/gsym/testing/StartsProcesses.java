package dev.gsym.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Starts other processes: a tool, a child JVM, the launcher, a server or a load generator. Tagged
 * {@code process}: the quick test profile ({@code ./mvnw -Pquick verify}, docs/reliability.md
 * "Test tiers") leaves it out; the README's test command and CI run it.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("process")
public @interface StartsProcesses {}
