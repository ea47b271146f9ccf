# gdb's answers about one core (regenerate.sh replaces @STACK@ by x/8xg $sp or x/8xw $sp).
# Each section starts with a line "@@ NAME"; the per-thread sections follow gdb's
# "Thread N (... (LWP PID)):" headers of `thread apply all`.
set pagination off
set width 0
set height 0
set confirm off
set print frame-arguments none
# the whole stack, down to _start and the thread's clone
set backtrace past-main on
set solib-search-path .
# physical-frames: one line per frame of the selected thread, innermost first: its pc, whether it
# is an inline frame (which shares the pc and the CFA of the frame it is inlined into) and its
# function; the unwinder's frames are the non-inline ones.
python
class PhysicalFrames(gdb.Command):
    def __init__(self):
        super().__init__("physical-frames", gdb.COMMAND_STACK)
    def invoke(self, arg, from_tty):
        f = gdb.newest_frame()
        while f is not None:
            kind = "inline" if f.type() == gdb.INLINE_FRAME else "frame"
            print("%s 0x%x %s" % (kind, f.pc(), f.name() or "??"))
            f = f.older()
PhysicalFrames()
# safe COMMAND: COMMAND's output, or "error: MESSAGE" (a core without NT_SIGINFO has no $_siginfo)
class Safe(gdb.Command):
    def __init__(self):
        super().__init__("safe", gdb.COMMAND_USER)
    def invoke(self, arg, from_tty):
        try:
            gdb.execute(arg)
        except gdb.error as e:
            print("error: %s" % e)
Safe()
end
define per_thread
  echo @@ bt\n
  bt
  echo @@ frames\n
  physical-frames
  echo @@ registers\n
  info registers
  echo @@ stack\n
  @STACK@
end
echo @@ threads\n
info threads
echo @@ signal\n
safe p $_siginfo
echo @@ mappings\n
safe info proc mappings
echo @@ sharedlibrary\n
safe info sharedlibrary
echo @@ auxv\n
safe info auxv
echo @@ per-thread\n
thread apply all per_thread
echo @@ end\n
