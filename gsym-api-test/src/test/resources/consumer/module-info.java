module dev.example.consumer {
  requires dev.gsym.dwarf;
  requires dev.gsym.breakpad;
  requires dev.gsym.demangle;
  requires dev.gsym.symbolize;
  requires dev.gsym.serve;
  requires dev.gsym.stackwalk;
  requires java.net.http;
}
