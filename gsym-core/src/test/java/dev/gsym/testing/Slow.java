package dev.gsym.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Runs long: seconds to a minute of its own (Spark sessions, load and concurrency runs, the fuzz
 * targets' replay under Jazzer's agent, the one home-grown mutation loop). Tagged {@code slow}:
 * the quick test profile ({@code ./mvnw -Pquick verify}, docs/reliability.md "Test tiers") leaves
 * it out; the README's test command and CI run it.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("slow")
public @interface Slow {}
