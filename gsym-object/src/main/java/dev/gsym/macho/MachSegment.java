package dev.gsym.macho;

/** An {@code LC_SEGMENT} / {@code LC_SEGMENT_64} command's segment (its sections are {@link MachSection}s). */
public record MachSegment(String name, long vmaddr, long vmsize, long fileoff, long filesize, long nsects, int command) {}
