package dev.gsym.write;

import dev.gsym.format.CallSiteInfo;
import dev.gsym.format.CallSiteInfoCollection;
import dev.gsym.format.FunctionInfo;
import dev.gsym.format.MergedFunctionsInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Attaches call sites to functions by name, as llvm's {@code CallSiteInfoLoader} does for {@code
 * --callsites-yaml-file} ({@link GsymCreator#loadCallSites} says how names are matched).
 */
final class CallSiteInfoLoader {
  private CallSiteInfoLoader() {}

  /**
   * Replaces the records in {@code funcs} of the functions {@code functions} names with records
   * that have their call sites, the regexes added to {@code strings} (the caller holds the
   * creator's lock).
   *
   * @throws IllegalArgumentException with llvm's message for an unknown name; {@code funcs} is unchanged then
   */
  static void load(List<StoredFunction> funcs, StringTableBuilder strings, List<FunctionCallSites> functions) {
    record Target(int func, int child) {}
    HashMap<String, Target> byName = new HashMap<>();
    for (int i = 0; i < funcs.size(); i++) {
      StoredFunction sf = funcs.get(i);
      byName.putIfAbsent(strings.get(sf.name), new Target(i, -1));
      if (sf.hasMerged) {
        List<FunctionInfo> kids = sf.info().mergedFunctions().mergedFunctions();
        for (int k = 0; k < kids.size(); k++) byName.putIfAbsent(strings.get(kids.get(k).name()), new Target(i, k));
      }
    }
    LinkedHashMap<Target, List<CallSiteInfo>> sites = new LinkedHashMap<>();
    for (FunctionCallSites f : functions) {
      Target t = byName.get(f.name());
      if (t == null) {
        throw new IllegalArgumentException("Can't find function '" + f.name() + "' specified in callsite YAML");
      }
      List<CallSiteInfo> list = sites.computeIfAbsent(t, k -> {
        FunctionInfo fi = funcs.get(k.func()).info();
        if (k.child() >= 0) fi = fi.mergedFunctions().mergedFunctions().get(k.child());
        return fi.callSites() == null ? new ArrayList<>() : new ArrayList<>(fi.callSites().callSites());
      });
      for (FunctionCallSites.CallSite cs : f.callSites()) {
        List<Integer> regex = new ArrayList<>(cs.matchRegex().size());
        for (String r : cs.matchRegex()) regex.add(strings.add(r));
        list.add(new CallSiteInfo(cs.returnOffset(), cs.flags(), regex));
      }
    }
    HashMap<Integer, FunctionInfo> edited = new HashMap<>();
    for (Map.Entry<Target, List<CallSiteInfo>> e : sites.entrySet()) {
      Target t = e.getKey();
      CallSiteInfoCollection c = new CallSiteInfoCollection(e.getValue());
      FunctionInfo fi = edited.computeIfAbsent(t.func(), i -> funcs.get(i).info());
      if (t.child() < 0) {
        fi = fi.withCallSites(c);
      } else {
        List<FunctionInfo> kids = new ArrayList<>(fi.mergedFunctions().mergedFunctions());
        kids.set(t.child(), kids.get(t.child()).withCallSites(c));
        fi = fi.withMergedFunctions(new MergedFunctionsInfo(kids));
      }
      edited.put(t.func(), fi);
    }
    for (Map.Entry<Integer, FunctionInfo> e : edited.entrySet()) {
      funcs.set(e.getKey(), StoredFunction.of(e.getValue()));
    }
  }
}
