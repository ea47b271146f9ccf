package dev.gsym.unwind;

/**
 * Windows x86 frame data as a Breakpad {@code STACK WIN} record carries it (from a PDB's FPO or
 * FrameData stream): sizes of the frame's parts and either a program string (a postfix program
 * that computes the caller's registers) or whether the function uses EBP as a frame pointer.
 *
 * @param type 0 FPO, 4 FrameData (the record's type field)
 * @param programString null when the record has none (then {@code allocatesBasePointer} applies)
 */
public record WindowsFrameInfo(UnwindSource source, long ordinal, int type, long start, long length,
    long prologSize, long epilogSize, long parameterSize, long savedRegisterSize, long localSize,
    long maxStackSize, String programString, boolean allocatesBasePointer) implements UnwindEntry {}
