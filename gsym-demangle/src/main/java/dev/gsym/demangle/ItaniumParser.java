package dev.gsym.demangle;

import dev.gsym.demangle.Node.AbiTagAttr;
import dev.gsym.demangle.Node.ArraySubscriptExpr;
import dev.gsym.demangle.Node.ArrayType;
import dev.gsym.demangle.Node.BinaryExpr;
import dev.gsym.demangle.Node.BinaryFPType;
import dev.gsym.demangle.Node.BitIntType;
import dev.gsym.demangle.Node.BoolExpr;
import dev.gsym.demangle.Node.BracedExpr;
import dev.gsym.demangle.Node.BracedRangeExpr;
import dev.gsym.demangle.Node.CallExpr;
import dev.gsym.demangle.Node.CastExpr;
import dev.gsym.demangle.Node.ClosureTypeName;
import dev.gsym.demangle.Node.ConditionalExpr;
import dev.gsym.demangle.Node.ConstrainedTypeTemplateParamDecl;
import dev.gsym.demangle.Node.ConversionExpr;
import dev.gsym.demangle.Node.ConversionOperatorType;
import dev.gsym.demangle.Node.CtorDtorName;
import dev.gsym.demangle.Node.CtorVtableSpecialName;
import dev.gsym.demangle.Node.DeleteExpr;
import dev.gsym.demangle.Node.DotSuffix;
import dev.gsym.demangle.Node.DtorName;
import dev.gsym.demangle.Node.DynamicExceptionSpec;
import dev.gsym.demangle.Node.ElaboratedTypeSpefType;
import dev.gsym.demangle.Node.EnableIfAttr;
import dev.gsym.demangle.Node.EnclosingExpr;
import dev.gsym.demangle.Node.EnumLiteral;
import dev.gsym.demangle.Node.ExpandedSpecialSubstitution;
import dev.gsym.demangle.Node.ExplicitObjectParameter;
import dev.gsym.demangle.Node.ExprRequirement;
import dev.gsym.demangle.Node.FloatLiteral;
import dev.gsym.demangle.Node.FoldExpr;
import dev.gsym.demangle.Node.ForwardTemplateReference;
import dev.gsym.demangle.Node.FunctionEncoding;
import dev.gsym.demangle.Node.FunctionParam;
import dev.gsym.demangle.Node.FunctionType;
import dev.gsym.demangle.Node.GlobalQualifiedName;
import dev.gsym.demangle.Node.InitListExpr;
import dev.gsym.demangle.Node.IntegerLiteral;
import dev.gsym.demangle.Node.LambdaExpr;
import dev.gsym.demangle.Node.LiteralOperator;
import dev.gsym.demangle.Node.LocalName;
import dev.gsym.demangle.Node.MemberExpr;
import dev.gsym.demangle.Node.MemberLikeFriendName;
import dev.gsym.demangle.Node.ModuleEntity;
import dev.gsym.demangle.Node.ModuleName;
import dev.gsym.demangle.Node.NameType;
import dev.gsym.demangle.Node.NameWithTemplateArgs;
import dev.gsym.demangle.Node.NestedName;
import dev.gsym.demangle.Node.NestedRequirement;
import dev.gsym.demangle.Node.NewExpr;
import dev.gsym.demangle.Node.NodeArrayNode;
import dev.gsym.demangle.Node.NoexceptSpec;
import dev.gsym.demangle.Node.NonTypeTemplateParamDecl;
import dev.gsym.demangle.Node.ObjCProtoName;
import dev.gsym.demangle.Node.ParameterPack;
import dev.gsym.demangle.Node.ParameterPackExpansion;
import dev.gsym.demangle.Node.PixelVectorType;
import dev.gsym.demangle.Node.PointerToMemberConversionExpr;
import dev.gsym.demangle.Node.PointerToMemberType;
import dev.gsym.demangle.Node.PointerType;
import dev.gsym.demangle.Node.PostfixExpr;
import dev.gsym.demangle.Node.PostfixQualifiedType;
import dev.gsym.demangle.Node.PrefixExpr;
import dev.gsym.demangle.Node.QualType;
import dev.gsym.demangle.Node.QualifiedName;
import dev.gsym.demangle.Node.ReferenceType;
import dev.gsym.demangle.Node.RequiresExpr;
import dev.gsym.demangle.Node.SizeofParamPackExpr;
import dev.gsym.demangle.Node.SpecialName;
import dev.gsym.demangle.Node.SpecialSubstitution;
import dev.gsym.demangle.Node.StringLiteral;
import dev.gsym.demangle.Node.StructuredBindingName;
import dev.gsym.demangle.Node.SubobjectExpr;
import dev.gsym.demangle.Node.SyntheticTemplateParamName;
import dev.gsym.demangle.Node.TemplateArgs;
import dev.gsym.demangle.Node.TemplateArgumentPack;
import dev.gsym.demangle.Node.TemplateParamPackDecl;
import dev.gsym.demangle.Node.TemplateParamQualifiedArg;
import dev.gsym.demangle.Node.TemplateTemplateParamDecl;
import dev.gsym.demangle.Node.ThrowExpr;
import dev.gsym.demangle.Node.TransformedType;
import dev.gsym.demangle.Node.TypeRequirement;
import dev.gsym.demangle.Node.TypeTemplateParamDecl;
import dev.gsym.demangle.Node.UnnamedTypeName;
import dev.gsym.demangle.Node.VectorType;
import dev.gsym.demangle.Node.VendorExtQualType;
import java.util.ArrayList;
import java.util.Arrays;

/**
 * The Itanium C++ ABI name parser: a port of LLVM's {@code AbstractManglingParser}
 * (ItaniumDemangle.h), production for production, so that it accepts and rejects exactly what
 * llvm-cxxfilt and llvm-symbolizer accept, and builds the same tree. A parse that fails returns
 * null; nothing here throws on any input.
 *
 * <p>One addition: the recursive productions count their nesting and fail beyond
 * {@link #MAX_DEPTH}, where llvm would recurse on (and, deep enough, overflow its stack). Real names
 * nest a few dozen levels.
 */
final class ItaniumParser {
  /** Bound on nested parse calls: far above real names, far below a stack overflow. */
  static final int MAX_DEPTH = 400;

  private final byte[] s;
  private int first;
  private int last;
  private int depth;

  // The parser's name stack: temporary nodes collapsed into arrays (llvm's Names).
  private final NodeVec names = new NodeVec(32);
  // The substitution table (S_, S0_, ...).
  private final NodeVec subs = new NodeVec(32);
  // Template arguments of the current encoding, referenced as T_, T0_, ...
  private NodeVec outerTemplateParams = new NodeVec(8);
  // Template parameter lists by level (TL1_0_): element 0 is outerTemplateParams, inner ones belong
  // to lambdas; null for a generic lambda without an explicit template parameter list.
  private ArrayList<NodeVec> templateParams = new ArrayList<>(4);
  // Unresolved forward template references (conversion operator types).
  private final ArrayList<ForwardTemplateReference> forwardTemplateRefs = new ArrayList<>(4);

  private boolean tryToParseTemplateArgs = true;
  private boolean permitForwardTemplateReferences;
  private boolean hasIncompleteTemplateParameterTracking;
  private long parsingLambdaParamsAtLevel = -1;
  private final long[] numSyntheticTemplateParameters = new long[3];

  // Out-parameters of parsePositiveInteger / parseSeqId / parseUnscopedName (size_t semantics).
  private long numberOut;
  private boolean unscopedIsSubst;

  ItaniumParser(byte[] s, int first, int last) {
    this.s = s;
    this.first = first;
    this.last = last;
  }

  /** Holds extra information about a &lt;name&gt; that may be an encoding's. */
  private static final class NameState {
    boolean ctorDtorConversion;
    boolean endsWithTemplateArgs;
    int cvQualifiers;
    int referenceQualifier;
    final int forwardTemplateRefsBegin;
    boolean hasExplicitObjectParameter;

    NameState(int forwardTemplateRefsBegin) {
      this.forwardTemplateRefsBegin = forwardTemplateRefsBegin;
    }
  }

  /** A growable array of nodes (llvm's PODSmallVector&lt;Node *&gt;). */
  static final class NodeVec {
    private Node[] a;
    private int size;

    NodeVec(int capacity) {
      a = new Node[capacity];
    }

    int size() {
      return size;
    }

    boolean isEmpty() {
      return size == 0;
    }

    void add(Node n) {
      if (size == a.length) a = Arrays.copyOf(a, size * 2);
      a[size++] = n;
    }

    Node get(int i) {
      return a[i];
    }

    void pop() {
      a[--size] = null;
    }

    void clear() {
      Arrays.fill(a, 0, size, null);
      size = 0;
    }

    /** Removes and returns the elements from {@code from} on. */
    Node[] popTrailing(int from) {
      if (from == size) return Node.NONE;
      Node[] r = Arrays.copyOfRange(a, from, size);
      Arrays.fill(a, from, size, null);
      size = from;
      return r;
    }
  }

  // ---- shared immutable nodes ----

  private static final NameType STD = new NameType("std");
  private static final NameType ANONYMOUS_NAMESPACE = new NameType("(anonymous namespace)");
  private static final NameType STRING_LITERAL = new NameType("string literal");
  private static final NameType BLOCK_LITERAL = new NameType("'block-literal'");
  private static final NameType NOEXCEPT = new NameType("noexcept");
  private static final NameType THIS = new NameType("this");
  private static final NameType THROW = new NameType("throw");
  private static final NameType NULLPTR = new NameType("nullptr");
  private static final NameType AUTO = new NameType("auto");
  private static final ModuleName MODULE_FAILED = new ModuleName(null, null, false);
  private static final NameType[] BUILTIN = new NameType[128];

  static {
    String[][] builtins = {
      {"v", "void"}, {"w", "wchar_t"}, {"b", "bool"}, {"c", "char"}, {"a", "signed char"},
      {"h", "unsigned char"}, {"s", "short"}, {"t", "unsigned short"}, {"i", "int"},
      {"j", "unsigned int"}, {"l", "long"}, {"m", "unsigned long"}, {"x", "long long"},
      {"y", "unsigned long long"}, {"n", "__int128"}, {"o", "unsigned __int128"}, {"f", "float"},
      {"d", "double"}, {"e", "long double"}, {"g", "__float128"}, {"z", "..."},
    };
    for (String[] b : builtins) BUILTIN[b[0].charAt(0)] = new NameType(b[1]);
  }

  // ---- input ----

  private boolean consumeIf(String prefix) {
    int n = prefix.length();
    if (last - first < n) return false;
    for (int i = 0; i < n; i++) {
      if ((s[first + i] & 0xff) != prefix.charAt(i)) return false;
    }
    first += n;
    return true;
  }

  private boolean consumeIf(char c) {
    if (first != last && (s[first] & 0xff) == c) {
      ++first;
      return true;
    }
    return false;
  }

  private int consume() {
    return first != last ? s[first++] & 0xff : 0;
  }

  private int look() {
    return first < last ? s[first] & 0xff : 0;
  }

  private int look(int lookahead) {
    return last - first <= lookahead ? 0 : s[first + lookahead] & 0xff;
  }

  private int numLeft() {
    return last - first;
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }

  private Sv view(int from, int to) {
    return new Sv(s, from, to - from);
  }

  private boolean enter() {
    if (depth >= MAX_DEPTH) return false;
    depth++;
    return true;
  }

  // ---- entry point ----

  /**
   * {@code <mangled-name> ::= _Z <encoding> [.<suffix>] | ___Z <encoding> _block_invoke[_]<n>
   * | <type>}. Null if the whole input is not one of these.
   */
  Node parse() {
    if (consumeIf("_Z") || consumeIf("__Z")) {
      Node encoding = parseEncoding();
      if (encoding == null) return null;
      if (look() == '.') {
        encoding = new DotSuffix(encoding, view(first, last));
        first = last;
      }
      if (numLeft() != 0) return null;
      return encoding;
    }
    if (consumeIf("___Z") || consumeIf("____Z")) {
      Node encoding = parseEncoding();
      if (encoding == null || !consumeIf("_block_invoke")) return null;
      boolean requireNumber = consumeIf('_');
      if (parseNumber(false).isEmpty() && requireNumber) return null;
      if (look() == '.') first = last;
      if (numLeft() != 0) return null;
      return new SpecialName("invocation function for block in ", encoding);
    }
    Node ty = parseType();
    if (numLeft() != 0) return null;
    return ty;
  }

  // ---- names ----

  // <name> ::= <nested-name> | <local-name> | <unscoped-template-name> <template-args> | <unscoped-name>
  private Node parseName(NameState state) {
    if (!enter()) return null;
    Node r = parseNameImpl(state);
    depth--;
    return r;
  }

  private Node parseNameImpl(NameState state) {
    if (look() == 'N') return parseNestedName(state);
    if (look() == 'Z') return parseLocalName(state);
    Node result = parseUnscopedName(state);
    if (result == null) return null;
    boolean isSubst = unscopedIsSubst;
    if (look() == 'I') {
      // An unscoped-template-name is substitutable.
      if (!isSubst) subs.add(result);
      Node ta = parseTemplateArgs(state != null);
      if (ta == null) return null;
      if (state != null) state.endsWithTemplateArgs = true;
      result = new NameWithTemplateArgs(result, ta);
    } else if (isSubst) {
      // The substitution case must be followed by <template-args>.
      return null;
    }
    return result;
  }

  // <local-name> := Z <function encoding> E <entity name> [<discriminator>]
  //              := Z <function encoding> E s [<discriminator>]
  //              := Z <function encoding> Ed [ <parameter number> ] _ <entity name>
  private Node parseLocalName(NameState state) {
    if (!consumeIf('Z')) return null;
    Node encoding = parseEncoding();
    if (encoding == null || !consumeIf('E')) return null;

    if (consumeIf('s')) {
      first = parseDiscriminator(first, last);
      return new LocalName(encoding, STRING_LITERAL);
    }

    // The template parameters of the inner name are unrelated to those of the enclosing context.
    ArrayList<NodeVec> savedParams = templateParams;
    NodeVec savedOuter = outerTemplateParams;
    templateParams = new ArrayList<>(4);
    outerTemplateParams = new NodeVec(8);
    try {
      if (consumeIf('d')) {
        parseNumber(true);
        if (!consumeIf('_')) return null;
        Node n = parseName(state);
        if (n == null) return null;
        return new LocalName(encoding, n);
      }
      Node entity = parseName(state);
      if (entity == null) return null;
      first = parseDiscriminator(first, last);
      return new LocalName(encoding, entity);
    } finally {
      templateParams = savedParams;
      outerTemplateParams = savedOuter;
    }
  }

  // <unscoped-name> ::= <unqualified-name> | St <unqualified-name>. Sets unscopedIsSubst.
  private Node parseUnscopedName(NameState state) {
    Node std = null;
    if (consumeIf("St")) std = STD;

    Node res = null;
    ModuleName module = null;
    boolean isSubst = false;
    if (look() == 'S') {
      Node sub = parseSubstitution();
      if (sub == null) return null;
      if (sub instanceof ModuleName m) {
        module = m;
      } else if (std == null) {
        res = sub;
        isSubst = true;
      } else {
        return null;
      }
    }
    if (res == null || std != null) res = parseUnqualifiedName(state, std, module);
    unscopedIsSubst = isSubst;
    return res;
  }

  // <unqualified-name> ::= [<module-name>] F? L? <operator-name> [<abi-tags>]
  //                    ::= [<module-name>] <ctor-dtor-name> [<abi-tags>]
  //                    ::= [<module-name>] F? L? <source-name> [<abi-tags>]
  //                    ::= [<module-name>] L? <unnamed-type-name> [<abi-tags>]
  //                    ::= [<module-name>] L? DC <source-name>+ E    # structured binding
  private Node parseUnqualifiedName(NameState state, Node scope, ModuleName module) {
    module = parseModuleNameOpt(module);
    if (module == MODULE_FAILED) return null;

    boolean isMemberLikeFriend = scope != null && consumeIf('F');
    consumeIf('L');

    Node result;
    if (look() >= '1' && look() <= '9') {
      result = parseSourceName();
    } else if (look() == 'U') {
      result = parseUnnamedTypeName(state);
    } else if (consumeIf("DC")) {
      int bindingsBegin = names.size();
      do {
        Node binding = parseSourceName();
        if (binding == null) return null;
        names.add(binding);
      } while (!consumeIf('E'));
      result = new StructuredBindingName(names.popTrailing(bindingsBegin));
    } else if (look() == 'C' || look() == 'D') {
      // A <ctor-dtor-name>.
      if (scope == null || module != null) return null;
      if (scope instanceof SpecialSubstitution ss) scope = new ExpandedSpecialSubstitution(ss.ssk);
      result = parseCtorDtorName(scope, state);
    } else {
      result = parseOperatorName(state);
    }

    if (result != null && module != null) result = new ModuleEntity(module, result);
    if (result != null) result = parseAbiTags(result);
    if (result != null && isMemberLikeFriend) result = new MemberLikeFriendName(scope, result);
    else if (result != null && scope != null) result = new NestedName(scope, result);
    return result;
  }

  // <module-name> ::= <module-subname> | <module-name> <module-subname> | <substitution>
  // <module-subname> ::= W <source-name> | W P <source-name>
  private ModuleName parseModuleNameOpt(ModuleName module) {
    while (consumeIf('W')) {
      boolean isPartition = consumeIf('P');
      Node sub = parseSourceName();
      if (sub == null) return MODULE_FAILED;
      module = new ModuleName(module, sub, isPartition);
      subs.add(module);
    }
    return module;
  }

  // <unnamed-type-name> ::= Ut [<nonnegative number>] _ | <closure-type-name>
  // <closure-type-name> ::= Ul <lambda-sig> E [ <nonnegative number> ] _
  // <lambda-sig> ::= <template-param-decl>* [Q <requires-clause expression>] <parameter type>+
  private Node parseUnnamedTypeName(NameState state) {
    // <template-params> refer to the innermost <template-args>: clear any outer args.
    if (state != null) templateParams.clear();

    if (consumeIf("Ut")) {
      Sv count = parseNumber(false);
      if (!consumeIf('_')) return null;
      return new UnnamedTypeName(count);
    }
    if (consumeIf("Ul")) {
      long savedLevel = parsingLambdaParamsAtLevel;
      parsingLambdaParamsAtLevel = templateParams.size();
      int oldNumLists = templateParams.size();
      NodeVec lambdaTemplateParams = new NodeVec(4);
      templateParams.add(lambdaTemplateParams);
      try {
        int paramsBegin = names.size();
        while (isTemplateParamDecl()) {
          Node t = parseTemplateParamDecl(lambdaTemplateParams);
          if (t == null) return null;
          names.add(t);
        }
        Node[] tempParams = names.popTrailing(paramsBegin);

        // Without explicit template parameters the lambda's level exists only for 'auto'
        // parameters, which parseTemplateParam re-creates when it meets one.
        if (tempParams.length == 0) templateParams.remove(templateParams.size() - 1);

        Node requires1 = null;
        if (consumeIf('Q')) {
          requires1 = parseConstraintExpr();
          if (requires1 == null) return null;
        }
        if (!consumeIf('v')) {
          do {
            Node p = parseType();
            if (p == null) return null;
            names.add(p);
          } while (look() != 'E' && look() != 'Q');
        }
        Node[] params = names.popTrailing(paramsBegin);

        Node requires2 = null;
        if (consumeIf('Q')) {
          requires2 = parseConstraintExpr();
          if (requires2 == null) return null;
        }
        if (!consumeIf('E')) return null;
        Sv count = parseNumber(false);
        if (!consumeIf('_')) return null;
        return new ClosureTypeName(tempParams, requires1, params, requires2, count);
      } finally {
        while (templateParams.size() > oldNumLists) templateParams.remove(templateParams.size() - 1);
        parsingLambdaParamsAtLevel = savedLevel;
      }
    }
    if (consumeIf("Ub")) {
      parseNumber(false);
      if (!consumeIf('_')) return null;
      return BLOCK_LITERAL;
    }
    return null;
  }

  // <source-name> ::= <positive length number> <identifier>
  private Node parseSourceName() {
    if (parsePositiveInteger()) return null;
    long length = numberOut;
    if (Long.compareUnsigned(numLeft(), length) < 0 || length == 0) return null;
    Sv name = view(first, first + (int) length);
    first += (int) length;
    if (name.startsWith("_GLOBAL__N")) return ANONYMOUS_NAMESPACE;
    return new NameType(name);
  }

  // ---- operators ----

  // OperatorInfo kinds.
  private static final int OP_PREFIX = 0;
  private static final int OP_POSTFIX = 1;
  private static final int OP_BINARY = 2;
  private static final int OP_ARRAY = 3;
  private static final int OP_MEMBER = 4;
  private static final int OP_NEW = 5;
  private static final int OP_DEL = 6;
  private static final int OP_CALL = 7;
  private static final int OP_CCAST = 8;
  private static final int OP_CONDITIONAL = 9;
  private static final int OP_NAME_ONLY = 10;
  private static final int OP_NAMED_CAST = 11; // the kinds from here on have no operator name
  private static final int OP_OF_ID_OP = 12;

  /** An operator encoding: two chars, kind, kind-specific flag, precedence, spelling. */
  private record OperatorInfo(char enc0, char enc1, int kind, boolean flag, int prec, Sv name, Sv symbol) {
    OperatorInfo(String enc, int kind, boolean flag, int prec, String name) {
      this(enc.charAt(0), enc.charAt(1), kind, flag, prec, Sv.of(name), Sv.of(symbolOf(kind, name)));
    }

    private static String symbolOf(int kind, String name) {
      if (kind >= OP_NAMED_CAST) return name;
      String r = name.substring("operator".length());
      return r.startsWith(" ") ? r.substring(1) : r;
    }
  }

  // Ordered by encoding.
  private static final OperatorInfo[] OPS = {
    new OperatorInfo("aN", OP_BINARY, false, Node.ASSIGN, "operator&="),
    new OperatorInfo("aS", OP_BINARY, false, Node.ASSIGN, "operator="),
    new OperatorInfo("aa", OP_BINARY, false, Node.ANDIF, "operator&&"),
    new OperatorInfo("ad", OP_PREFIX, false, Node.UNARY, "operator&"),
    new OperatorInfo("an", OP_BINARY, false, Node.AND, "operator&"),
    new OperatorInfo("at", OP_OF_ID_OP, true, Node.UNARY, "alignof "),
    new OperatorInfo("aw", OP_NAME_ONLY, false, Node.PRIMARY, "operator co_await"),
    new OperatorInfo("az", OP_OF_ID_OP, false, Node.UNARY, "alignof "),
    new OperatorInfo("cc", OP_NAMED_CAST, false, Node.POSTFIX, "const_cast"),
    new OperatorInfo("cl", OP_CALL, false, Node.POSTFIX, "operator()"),
    new OperatorInfo("cm", OP_BINARY, false, Node.COMMA, "operator,"),
    new OperatorInfo("co", OP_PREFIX, false, Node.UNARY, "operator~"),
    new OperatorInfo("cp", OP_CALL, true, Node.POSTFIX, "operator()"),
    new OperatorInfo("cv", OP_CCAST, false, Node.CAST, "operator"),
    new OperatorInfo("dV", OP_BINARY, false, Node.ASSIGN, "operator/="),
    new OperatorInfo("da", OP_DEL, true, Node.UNARY, "operator delete[]"),
    new OperatorInfo("dc", OP_NAMED_CAST, false, Node.POSTFIX, "dynamic_cast"),
    new OperatorInfo("de", OP_PREFIX, false, Node.UNARY, "operator*"),
    new OperatorInfo("dl", OP_DEL, false, Node.UNARY, "operator delete"),
    new OperatorInfo("ds", OP_MEMBER, false, Node.PTRMEM, "operator.*"),
    new OperatorInfo("dt", OP_MEMBER, false, Node.POSTFIX, "operator."),
    new OperatorInfo("dv", OP_BINARY, false, Node.ASSIGN, "operator/"),
    new OperatorInfo("eO", OP_BINARY, false, Node.ASSIGN, "operator^="),
    new OperatorInfo("eo", OP_BINARY, false, Node.XOR, "operator^"),
    new OperatorInfo("eq", OP_BINARY, false, Node.EQUALITY, "operator=="),
    new OperatorInfo("ge", OP_BINARY, false, Node.RELATIONAL, "operator>="),
    new OperatorInfo("gt", OP_BINARY, false, Node.RELATIONAL, "operator>"),
    new OperatorInfo("ix", OP_ARRAY, false, Node.POSTFIX, "operator[]"),
    new OperatorInfo("lS", OP_BINARY, false, Node.ASSIGN, "operator<<="),
    new OperatorInfo("le", OP_BINARY, false, Node.RELATIONAL, "operator<="),
    new OperatorInfo("ls", OP_BINARY, false, Node.SHIFT, "operator<<"),
    new OperatorInfo("lt", OP_BINARY, false, Node.RELATIONAL, "operator<"),
    new OperatorInfo("mI", OP_BINARY, false, Node.ASSIGN, "operator-="),
    new OperatorInfo("mL", OP_BINARY, false, Node.ASSIGN, "operator*="),
    new OperatorInfo("mi", OP_BINARY, false, Node.ADDITIVE, "operator-"),
    new OperatorInfo("ml", OP_BINARY, false, Node.MULTIPLICATIVE, "operator*"),
    new OperatorInfo("mm", OP_POSTFIX, false, Node.POSTFIX, "operator--"),
    new OperatorInfo("na", OP_NEW, true, Node.UNARY, "operator new[]"),
    new OperatorInfo("ne", OP_BINARY, false, Node.EQUALITY, "operator!="),
    new OperatorInfo("ng", OP_PREFIX, false, Node.UNARY, "operator-"),
    new OperatorInfo("nt", OP_PREFIX, false, Node.UNARY, "operator!"),
    new OperatorInfo("nw", OP_NEW, false, Node.UNARY, "operator new"),
    new OperatorInfo("oR", OP_BINARY, false, Node.ASSIGN, "operator|="),
    new OperatorInfo("oo", OP_BINARY, false, Node.ORIF, "operator||"),
    new OperatorInfo("or", OP_BINARY, false, Node.IOR, "operator|"),
    new OperatorInfo("pL", OP_BINARY, false, Node.ASSIGN, "operator+="),
    new OperatorInfo("pl", OP_BINARY, false, Node.ADDITIVE, "operator+"),
    new OperatorInfo("pm", OP_MEMBER, true, Node.PTRMEM, "operator->*"),
    new OperatorInfo("pp", OP_POSTFIX, false, Node.POSTFIX, "operator++"),
    new OperatorInfo("ps", OP_PREFIX, false, Node.UNARY, "operator+"),
    new OperatorInfo("pt", OP_MEMBER, true, Node.POSTFIX, "operator->"),
    new OperatorInfo("qu", OP_CONDITIONAL, false, Node.CONDITIONAL, "operator?"),
    new OperatorInfo("rM", OP_BINARY, false, Node.ASSIGN, "operator%="),
    new OperatorInfo("rS", OP_BINARY, false, Node.ASSIGN, "operator>>="),
    new OperatorInfo("rc", OP_NAMED_CAST, false, Node.POSTFIX, "reinterpret_cast"),
    new OperatorInfo("rm", OP_BINARY, false, Node.MULTIPLICATIVE, "operator%"),
    new OperatorInfo("rs", OP_BINARY, false, Node.SHIFT, "operator>>"),
    new OperatorInfo("sc", OP_NAMED_CAST, false, Node.POSTFIX, "static_cast"),
    new OperatorInfo("ss", OP_BINARY, false, Node.SPACESHIP, "operator<=>"),
    new OperatorInfo("st", OP_OF_ID_OP, true, Node.UNARY, "sizeof "),
    new OperatorInfo("sz", OP_OF_ID_OP, false, Node.UNARY, "sizeof "),
    new OperatorInfo("te", OP_OF_ID_OP, false, Node.POSTFIX, "typeid "),
    new OperatorInfo("ti", OP_OF_ID_OP, true, Node.POSTFIX, "typeid "),
  };

  /** If the next two chars are an operator encoding, consumes them and returns it; else null. */
  private OperatorInfo parseOperatorEncoding() {
    if (numLeft() < 2) return null;
    int p0 = s[first] & 0xff;
    int p1 = s[first + 1] & 0xff;
    int lower = 0;
    int upper = OPS.length - 1; // inclusive bounds
    while (upper != lower) {
      int middle = (upper + lower) >>> 1;
      OperatorInfo m = OPS[middle];
      if (m.enc0 < p0 || (m.enc0 == p0 && m.enc1 < p1)) lower = middle + 1;
      else upper = middle;
    }
    OperatorInfo op = OPS[lower];
    if (op.enc0 != p0 || op.enc1 != p1) return null;
    first += 2;
    return op;
  }

  //   <operator-name> ::= See parseOperatorEncoding()
  //                   ::= li <source-name>  # operator ""
  //                   ::= v <digit> <source-name>  # vendor extended operator
  private Node parseOperatorName(NameState state) {
    OperatorInfo op = parseOperatorEncoding();
    if (op != null) {
      if (op.kind == OP_CCAST) {
        //              ::= cv <type>    # (cast)
        boolean savedTry = tryToParseTemplateArgs;
        boolean savedPermit = permitForwardTemplateReferences;
        tryToParseTemplateArgs = false;
        // In an encoding the conversion operator's type may name template arguments that come
        // later in the mangled name.
        permitForwardTemplateReferences = savedPermit || state != null;
        Node ty = parseType();
        tryToParseTemplateArgs = savedTry;
        permitForwardTemplateReferences = savedPermit;
        if (ty == null) return null;
        if (state != null) state.ctorDtorConversion = true;
        return new ConversionOperatorType(ty);
      }
      if (op.kind >= OP_NAMED_CAST) return null; // not a nameable operator
      if (op.kind == OP_MEMBER && !op.flag) return null; // not a nameable member expression
      return new NameType(op.name);
    }
    if (consumeIf("li")) {
      Node sn = parseSourceName();
      if (sn == null) return null;
      return new LiteralOperator(sn);
    }
    if (consumeIf('v')) {
      if (isDigit(look())) {
        first++;
        Node sn = parseSourceName();
        if (sn == null) return null;
        return new ConversionOperatorType(sn);
      }
      return null;
    }
    return null;
  }

  // <ctor-dtor-name> ::= C1 | C2 | C3 | C4 | C5 | CI1 <type> | CI2 <type> | D0 | D1 | D2 | D4 | D5
  private Node parseCtorDtorName(Node soFar, NameState state) {
    if (consumeIf('C')) {
      boolean isInherited = consumeIf('I');
      int c = look();
      if (c != '1' && c != '2' && c != '3' && c != '4' && c != '5') return null;
      int variant = c - '0';
      ++first;
      if (state != null) state.ctorDtorConversion = true;
      if (isInherited && parseName(state) == null) return null;
      return new CtorDtorName(soFar, false, variant);
    }
    int c1 = look(1);
    if (look() == 'D' && (c1 == '0' || c1 == '1' || c1 == '2' || c1 == '4' || c1 == '5')) {
      first += 2;
      if (state != null) state.ctorDtorConversion = true;
      return new CtorDtorName(soFar, true, c1 - '0');
    }
    return null;
  }

  // <nested-name> ::= N [<CV-Qualifiers>] [<ref-qualifier>] <prefix> <unqualified-name> E
  //               ::= N [<CV-Qualifiers>] [<ref-qualifier>] <template-prefix> <template-args> E
  private Node parseNestedName(NameState state) {
    if (!consumeIf('N')) return null;

    // 'H': the encoding that follows has an explicit object parameter.
    if (!consumeIf('H')) {
      int cv = parseCVQualifiers();
      if (state != null) state.cvQualifiers = cv;
      if (consumeIf('O')) {
        if (state != null) state.referenceQualifier = Node.REF_RVALUE;
      } else if (consumeIf('R')) {
        if (state != null) state.referenceQualifier = Node.REF_LVALUE;
      } else if (state != null) {
        state.referenceQualifier = Node.REF_NONE;
      }
    } else if (state != null) {
      state.hasExplicitObjectParameter = true;
    }

    Node soFar = null;
    while (!consumeIf('E')) {
      if (state != null) state.endsWithTemplateArgs = false;

      if (look() == 'T') {
        //          ::= <template-param>
        if (soFar != null) return null; // cannot have a prefix
        soFar = parseTemplateParam();
      } else if (look() == 'I') {
        //          ::= <template-prefix> <template-args>
        if (soFar == null) return null; // must have a prefix
        Node ta = parseTemplateArgs(state != null);
        if (ta == null) return null;
        // <template-args> <template-args> cannot come from a C++ entity.
        if (soFar instanceof NameWithTemplateArgs) return null;
        if (state != null) state.endsWithTemplateArgs = true;
        soFar = new NameWithTemplateArgs(soFar, ta);
      } else if (look() == 'D' && (look(1) == 't' || look(1) == 'T')) {
        //          ::= <decltype>
        if (soFar != null) return null;
        soFar = parseDecltype();
      } else {
        ModuleName module = null;
        if (look() == 'S') {
          //          ::= <substitution>
          Node sub;
          if (look(1) == 't') {
            first += 2;
            sub = STD;
          } else {
            sub = parseSubstitution();
          }
          if (sub == null) return null;
          if (sub instanceof ModuleName m) {
            module = m;
          } else if (soFar != null) {
            return null; // cannot have a prefix
          } else {
            soFar = sub;
            continue; // do not push a new substitution
          }
        }
        //          ::= [<prefix>] <unqualified-name>
        soFar = parseUnqualifiedName(state, soFar, module);
      }

      if (soFar == null) return null;
      subs.add(soFar);

      // <data-member-prefix> := <member source-name> [<template-args>] M  (no longer used)
      consumeIf('M');
    }

    if (soFar == null || subs.isEmpty()) return null;
    subs.pop();
    return soFar;
  }

  // <simple-id> ::= <source-name> [ <template-args> ]
  private Node parseSimpleId() {
    Node sn = parseSourceName();
    if (sn == null) return null;
    if (look() == 'I') {
      Node ta = parseTemplateArgs(false);
      if (ta == null) return null;
      return new NameWithTemplateArgs(sn, ta);
    }
    return sn;
  }

  // <destructor-name> ::= <unresolved-type> | <simple-id>
  private Node parseDestructorName() {
    Node result = isDigit(look()) ? parseSimpleId() : parseUnresolvedType();
    if (result == null) return null;
    return new DtorName(result);
  }

  // <unresolved-type> ::= <template-param> | <decltype> | <substitution>
  private Node parseUnresolvedType() {
    if (look() == 'T') {
      Node tp = parseTemplateParam();
      if (tp == null) return null;
      subs.add(tp);
      return tp;
    }
    if (look() == 'D') {
      Node dt = parseDecltype();
      if (dt == null) return null;
      subs.add(dt);
      return dt;
    }
    return parseSubstitution();
  }

  // <base-unresolved-name> ::= <simple-id> | [on] <operator-name> [<template-args>] | dn <destructor-name>
  private Node parseBaseUnresolvedName() {
    if (isDigit(look())) return parseSimpleId();
    if (consumeIf("dn")) return parseDestructorName();
    consumeIf("on");
    Node oper = parseOperatorName(null);
    if (oper == null) return null;
    if (look() == 'I') {
      Node ta = parseTemplateArgs(false);
      if (ta == null) return null;
      return new NameWithTemplateArgs(oper, ta);
    }
    return oper;
  }

  // <unresolved-name>
  //  extension ::= srN <unresolved-type> [<template-args>] <unresolved-qualifier-level>* E <base-unresolved-name>
  //            ::= [gs] <base-unresolved-name>
  //            ::= [gs] sr <unresolved-qualifier-level>+ E <base-unresolved-name>
  //            ::= sr <unresolved-type> <base-unresolved-name>
  //  extension ::= sr <unresolved-type> <template-args> <base-unresolved-name>
  private Node parseUnresolvedName(boolean global) {
    Node soFar;
    if (consumeIf("srN")) {
      soFar = parseUnresolvedType();
      if (soFar == null) return null;
      if (look() == 'I') {
        Node ta = parseTemplateArgs(false);
        if (ta == null) return null;
        soFar = new NameWithTemplateArgs(soFar, ta);
      }
      while (!consumeIf('E')) {
        Node qual = parseSimpleId();
        if (qual == null) return null;
        soFar = new QualifiedName(soFar, qual);
      }
      Node base = parseBaseUnresolvedName();
      if (base == null) return null;
      return new QualifiedName(soFar, base);
    }

    if (!consumeIf("sr")) {
      soFar = parseBaseUnresolvedName();
      if (soFar == null) return null;
      if (global) soFar = new GlobalQualifiedName(soFar);
      return soFar;
    }

    soFar = null;
    if (isDigit(look())) {
      // [gs] sr <unresolved-qualifier-level>+ E <base-unresolved-name>
      do {
        Node qual = parseSimpleId();
        if (qual == null) return null;
        if (soFar != null) soFar = new QualifiedName(soFar, qual);
        else if (global) soFar = new GlobalQualifiedName(qual);
        else soFar = qual;
      } while (!consumeIf('E'));
    } else {
      // sr <unresolved-type> [<template-args>] <base-unresolved-name>
      soFar = parseUnresolvedType();
      if (soFar == null) return null;
      if (look() == 'I') {
        Node ta = parseTemplateArgs(false);
        if (ta == null) return null;
        soFar = new NameWithTemplateArgs(soFar, ta);
      }
    }
    Node base = parseBaseUnresolvedName();
    if (base == null) return null;
    return new QualifiedName(soFar, base);
  }

  // <abi-tags> ::= <abi-tag> [<abi-tags>]; <abi-tag> ::= B <source-name>
  private Node parseAbiTags(Node n) {
    while (consumeIf('B')) {
      Sv sn = parseBareSourceName();
      if (sn.isEmpty()) return null;
      n = new AbiTagAttr(n, sn);
    }
    return n;
  }

  // ---- numbers ----

  // <number> ::= [n] <non-negative decimal integer>
  private Sv parseNumber(boolean allowNegative) {
    int tmp = first;
    if (allowNegative) consumeIf('n');
    if (numLeft() == 0 || !isDigit(s[first] & 0xff)) return Sv.EMPTY;
    while (numLeft() != 0 && isDigit(s[first] & 0xff)) ++first;
    return view(tmp, first);
  }

  // <positive length number> ::= [0-9]*  (into numberOut, wrapping as size_t); true on failure.
  private boolean parsePositiveInteger() {
    numberOut = 0;
    if (!isDigit(look())) return true;
    long out = 0;
    while (isDigit(look())) out = out * 10 + (consume() - '0');
    numberOut = out;
    return false;
  }

  private Sv parseBareSourceName() {
    if (parsePositiveInteger() || Long.compareUnsigned(numLeft(), numberOut) < 0) return Sv.EMPTY;
    Sv r = view(first, first + (int) numberOut);
    first += (int) numberOut;
    return r;
  }

  // <CV-Qualifiers> ::= [r] [V] [K]
  private int parseCVQualifiers() {
    int cvr = 0;
    if (consumeIf('r')) cvr |= Node.QUAL_RESTRICT;
    if (consumeIf('V')) cvr |= Node.QUAL_VOLATILE;
    if (consumeIf('K')) cvr |= Node.QUAL_CONST;
    return cvr;
  }

  // <seq-id> ::= <0-9A-Z>+  (into numberOut, wrapping as size_t); true on failure.
  private boolean parseSeqId() {
    int c = look();
    if (!isDigit(c) && !(c >= 'A' && c <= 'Z')) return true;
    long id = 0;
    while (true) {
      c = look();
      if (isDigit(c)) {
        id = id * 36 + (c - '0');
      } else if (c >= 'A' && c <= 'Z') {
        id = id * 36 + (c - 'A' + 10);
      } else {
        numberOut = id;
        return false;
      }
      ++first;
    }
  }

  // <discriminator> := _ <digit> | __ <number> _ | <digits at the end of the string>
  private int parseDiscriminator(int f, int l) {
    if (f != l) {
      int c = s[f] & 0xff;
      if (c == '_') {
        int t1 = f + 1;
        if (t1 != l) {
          if (isDigit(s[t1] & 0xff)) {
            f = t1 + 1;
          } else if ((s[t1] & 0xff) == '_') {
            for (++t1; t1 != l && isDigit(s[t1] & 0xff); ++t1) {
              // skip digits
            }
            if (t1 != l && (s[t1] & 0xff) == '_') f = t1 + 1;
          }
        }
      } else if (isDigit(c)) {
        int t1 = f + 1;
        while (t1 != l && isDigit(s[t1] & 0xff)) ++t1;
        if (t1 == l) f = l;
      }
    }
    return f;
  }

  // ---- types ----

  // <function-type> ::= [<CV-qualifiers>] [<exception-spec>] [Dx] F [Y] <bare-function-type> [<ref-qualifier>] E
  private Node parseFunctionType() {
    int cvQuals = parseCVQualifiers();

    Node exceptionSpec = null;
    if (consumeIf("Do")) {
      exceptionSpec = NOEXCEPT;
    } else if (consumeIf("DO")) {
      Node e = parseExpr();
      if (e == null || !consumeIf('E')) return null;
      exceptionSpec = new NoexceptSpec(e);
    } else if (consumeIf("Dw")) {
      int specsBegin = names.size();
      while (!consumeIf('E')) {
        Node t = parseType();
        if (t == null) return null;
        names.add(t);
      }
      exceptionSpec = new DynamicExceptionSpec(names.popTrailing(specsBegin));
    }

    consumeIf("Dx"); // transaction safe

    if (!consumeIf('F')) return null;
    consumeIf('Y'); // extern "C"
    Node returnType = parseType();
    if (returnType == null) return null;

    int refQual = Node.REF_NONE;
    int paramsBegin = names.size();
    while (true) {
      if (consumeIf('E')) break;
      if (consumeIf('v')) continue;
      if (consumeIf("RE")) {
        refQual = Node.REF_LVALUE;
        break;
      }
      if (consumeIf("OE")) {
        refQual = Node.REF_RVALUE;
        break;
      }
      Node t = parseType();
      if (t == null) return null;
      names.add(t);
    }
    return new FunctionType(returnType, names.popTrailing(paramsBegin), cvQuals, refQual, exceptionSpec);
  }

  // <vector-type> ::= Dv <positive dimension number> _ <extended element type>
  //               ::= Dv [<dimension expression>] _ <element type>
  private Node parseVectorType() {
    if (!consumeIf("Dv")) return null;
    if (look() >= '1' && look() <= '9') {
      Node dimensionNumber = new NameType(parseNumber(false));
      if (!consumeIf('_')) return null;
      if (consumeIf('p')) return new PixelVectorType(dimensionNumber);
      Node elemType = parseType();
      if (elemType == null) return null;
      return new VectorType(elemType, dimensionNumber);
    }
    if (!consumeIf('_')) {
      Node dimExpr = parseExpr();
      if (dimExpr == null) return null;
      if (!consumeIf('_')) return null;
      Node elemType = parseType();
      if (elemType == null) return null;
      return new VectorType(elemType, dimExpr);
    }
    Node elemType = parseType();
    if (elemType == null) return null;
    return new VectorType(elemType, null);
  }

  // <decltype> ::= Dt <expression> E | DT <expression> E
  private Node parseDecltype() {
    if (!consumeIf('D')) return null;
    if (!consumeIf('t') && !consumeIf('T')) return null;
    Node e = parseExpr();
    if (e == null) return null;
    if (!consumeIf('E')) return null;
    return new EnclosingExpr("decltype", e);
  }

  // <array-type> ::= A <positive dimension number> _ <element type> | A [<dimension expression>] _ <element type>
  private Node parseArrayType() {
    if (!consumeIf('A')) return null;
    Node dimension = null;
    if (isDigit(look())) {
      dimension = new NameType(parseNumber(false));
      if (!consumeIf('_')) return null;
    } else if (!consumeIf('_')) {
      Node dimExpr = parseExpr();
      if (dimExpr == null) return null;
      if (!consumeIf('_')) return null;
      dimension = dimExpr;
    }
    Node ty = parseType();
    if (ty == null) return null;
    return new ArrayType(ty, dimension);
  }

  // <pointer-to-member-type> ::= M <class type> <member type>
  private Node parsePointerToMemberType() {
    if (!consumeIf('M')) return null;
    Node classType = parseType();
    if (classType == null) return null;
    Node memberType = parseType();
    if (memberType == null) return null;
    return new PointerToMemberType(classType, memberType);
  }

  // <class-enum-type> ::= <name> | Ts <name> | Tu <name> | Te <name>
  private Node parseClassEnumType() {
    String elabSpef = null;
    if (consumeIf("Ts")) elabSpef = "struct";
    else if (consumeIf("Tu")) elabSpef = "union";
    else if (consumeIf("Te")) elabSpef = "enum";
    Node name = parseName(null);
    if (name == null) return null;
    if (elabSpef != null) return new ElaboratedTypeSpefType(elabSpef, name);
    return name;
  }

  // <qualified-type> ::= <qualifiers> <type>
  // <qualifiers> ::= <extended-qualifier>* <CV-qualifiers>
  // <extended-qualifier> ::= U <source-name> [<template-args>]
  private Node parseQualifiedType() {
    if (!enter()) return null;
    Node r = parseQualifiedTypeImpl();
    depth--;
    return r;
  }

  private Node parseQualifiedTypeImpl() {
    if (consumeIf('U')) {
      Sv qual = parseBareSourceName();
      if (qual.isEmpty()) return null;

      // extension ::= U <objc-name> <objc-type>  # objc-type<identifier>
      if (qual.startsWith("objcproto")) {
        int savedFirst = first;
        int savedLast = last;
        first = qual.off() + "objcproto".length();
        last = qual.off() + qual.len();
        Sv proto = parseBareSourceName();
        first = savedFirst;
        last = savedLast;
        if (proto.isEmpty()) return null;
        Node child = parseQualifiedType();
        if (child == null) return null;
        return new ObjCProtoName(child, proto);
      }

      Node ta = null;
      if (look() == 'I') {
        ta = parseTemplateArgs(false);
        if (ta == null) return null;
      }
      Node child = parseQualifiedType();
      if (child == null) return null;
      return new VendorExtQualType(child, qual, ta);
    }

    int quals = parseCVQualifiers();
    Node ty = parseType();
    if (ty == null) return null;
    if (quals != 0) ty = new QualType(ty, quals);
    return ty;
  }

  // <type> ::= <builtin-type> | <qualified-type> | <function-type> | <class-enum-type>
  //        ::= <array-type> | <pointer-to-member-type> | <template-param>
  //        ::= <template-template-param> <template-args> | <decltype>
  //        ::= P <type> | R <type> | O <type> | C <type> | G <type> | <substitution>
  private Node parseType() {
    if (!enter()) return null;
    Node r = parseTypeImpl();
    depth--;
    return r;
  }

  private Node parseTypeImpl() {
    Node result = null;
    int c = look();
    switch (c) {
      case 'r', 'V', 'K' -> {
        //             ::= <qualified-type>
        int afterQuals = 0;
        if (look(afterQuals) == 'r') ++afterQuals;
        if (look(afterQuals) == 'V') ++afterQuals;
        if (look(afterQuals) == 'K') ++afterQuals;
        int q = look(afterQuals);
        int q1 = look(afterQuals + 1);
        if (q == 'F' || (q == 'D' && (q1 == 'o' || q1 == 'O' || q1 == 'w' || q1 == 'x'))) {
          result = parseFunctionType();
        } else {
          result = parseQualifiedType();
        }
      }
      case 'U' -> result = parseQualifiedType();
      case 'v', 'w', 'b', 'c', 'a', 'h', 's', 't', 'i', 'j', 'l', 'm', 'x', 'y', 'n', 'o', 'f', 'd',
          'e', 'g', 'z' -> {
        // <builtin-type>: no substitution.
        ++first;
        return BUILTIN[c];
      }
      case 'u' -> {
        // <builtin-type> ::= u <source-name>    # vendor extended type
        ++first;
        Sv res = parseBareSourceName();
        if (res.isEmpty()) return null;
        // Vendor extended types are substitution candidates (Itanium C++ ABI 5.9.1).
        if (consumeIf('I')) {
          Node baseType = parseType();
          if (baseType == null) return null;
          if (!consumeIf('E')) return null;
          result = new TransformedType(res, baseType);
        } else {
          result = new NameType(res);
        }
      }
      case 'D' -> {
        switch (look(1)) {
          case 'd' -> {
            first += 2;
            return new NameType("decimal64");
          }
          case 'e' -> {
            first += 2;
            return new NameType("decimal128");
          }
          case 'f' -> {
            first += 2;
            return new NameType("decimal32");
          }
          case 'h' -> {
            first += 2;
            return new NameType("half");
          }
          case 'F' -> {
            //       ::= DF16b         # C++23 std::bfloat16_t
            //       ::= DF <number> _ # ISO/IEC TS 18661 binary floating point (N bits)
            first += 2;
            if (consumeIf("16b")) return new NameType("std::bfloat16_t");
            Node dimensionNumber = new NameType(parseNumber(false));
            if (!consumeIf('_')) return null;
            return new BinaryFPType(dimensionNumber);
          }
          case 'A' -> {
            int k = look(2);
            first += 3;
            return fixedPoint(k, "", "_Accum");
          }
          case 'R' -> {
            int k = look(2);
            first += 3;
            return fixedPoint(k, "", "_Fract");
          }
          case 'S' -> {
            first += 2;
            if (look() != 'D') return null;
            if (look(1) == 'A') {
              int k = look(2);
              first += 3;
              return fixedPoint(k, "_Sat ", "_Accum");
            }
            if (look(1) == 'R') {
              int k = look(2);
              first += 3;
              return fixedPoint(k, "_Sat ", "_Fract");
            }
            return null;
          }
          case 'B', 'U' -> {
            //       ::= DB <number> _ | DB <expression> _ | DU <number> _ | DU <expression> _
            boolean signed = look(1) == 'B';
            first += 2;
            Node size = isDigit(look()) ? new NameType(parseNumber(false)) : parseExpr();
            if (size == null) return null;
            if (!consumeIf('_')) return null;
            return new BitIntType(size, signed);
          }
          case 'i' -> {
            first += 2;
            return new NameType("char32_t");
          }
          case 's' -> {
            first += 2;
            return new NameType("char16_t");
          }
          case 'u' -> {
            first += 2;
            return new NameType("char8_t");
          }
          case 'a' -> {
            first += 2;
            return AUTO;
          }
          case 'c' -> {
            first += 2;
            return new NameType("decltype(auto)");
          }
          case 'k', 'K' -> {
            //       ::= Dk <type-constraint> | DK <type-constraint>
            String kind = look(1) == 'k' ? " auto" : " decltype(auto)";
            first += 2;
            Node constraint = parseName(null);
            if (constraint == null) return null;
            return new PostfixQualifiedType(constraint, kind);
          }
          case 'n' -> {
            first += 2;
            return new NameType("std::nullptr_t");
          }
          case 't', 'T' -> result = parseDecltype();
          case 'v' -> result = parseVectorType();
          case 'p' -> {
            //       ::= Dp <type>       # pack expansion (C++0x)
            first += 2;
            Node child = parseType();
            if (child == null) return null;
            result = new ParameterPackExpansion(child);
          }
          case 'o', 'O', 'w', 'x' -> result = parseFunctionType(); // exception spec / transaction safe
          default -> {
            // not a type
          }
        }
      }
      case 'F' -> result = parseFunctionType();
      case 'A' -> result = parseArrayType();
      case 'M' -> result = parsePointerToMemberType();
      case 'T' -> {
        // Either an elaborated type specifier on a <class-enum-type>, or a <template-param>.
        if (look(1) == 's' || look(1) == 'u' || look(1) == 'e') {
          result = parseClassEnumType();
          break;
        }
        result = parseTemplateParam();
        if (result == null) return null;
        // <type> ::= <template-param> | <template-template-param> <template-args>: the second
        // if template args follow and we may parse them.
        if (tryToParseTemplateArgs && look() == 'I') {
          subs.add(result);
          Node ta = parseTemplateArgs(false);
          if (ta == null) return null;
          result = new NameWithTemplateArgs(result, ta);
        }
      }
      case 'P' -> {
        ++first;
        Node ptr = parseType();
        if (ptr == null) return null;
        result = new PointerType(ptr);
      }
      case 'R' -> {
        ++first;
        Node ref = parseType();
        if (ref == null) return null;
        result = new ReferenceType(ref, false);
      }
      case 'O' -> {
        ++first;
        Node ref = parseType();
        if (ref == null) return null;
        result = new ReferenceType(ref, true);
      }
      case 'C' -> {
        ++first;
        Node p = parseType();
        if (p == null) return null;
        result = new PostfixQualifiedType(p, " complex");
      }
      case 'G' -> {
        ++first;
        Node p = parseType();
        if (p == null) return null;
        result = new PostfixQualifiedType(p, " imaginary");
      }
      case 'S' -> {
        if (look(1) != 't') {
          result = parseUnscopedName(null);
          if (result == null) return null;
          boolean isSubst = unscopedIsSubst;
          // <type> ::= <substitution> | <template-template-param> <template-args>
          if (look() == 'I' && (!isSubst || tryToParseTemplateArgs)) {
            if (!isSubst) subs.add(result);
            Node ta = parseTemplateArgs(false);
            if (ta == null) return null;
            result = new NameWithTemplateArgs(result, ta);
          } else if (isSubst) {
            // A bare substitution is not inserted again.
            return result;
          }
        } else {
          result = parseClassEnumType();
        }
      }
      default -> result = parseClassEnumType();
    }

    // Builtin types and substitutions returned above: everything else is a substitution candidate.
    if (result != null) subs.add(result);
    return result;
  }

  private static Node fixedPoint(int k, String sat, String kind) {
    String size = switch (k) {
      case 's' -> "short ";
      case 't' -> "unsigned short ";
      case 'i' -> "";
      case 'j' -> "unsigned ";
      case 'l' -> "long ";
      case 'm' -> "unsigned long ";
      default -> null;
    };
    return size == null ? null : new NameType(sat + size + kind);
  }

  // ---- expressions ----

  private Node parsePrefixExpr(Sv kind, int prec) {
    Node e = parseExpr();
    if (e == null) return null;
    return new PrefixExpr(kind, e, prec);
  }

  private Node parseBinaryExpr(Sv kind, int prec) {
    Node lhs = parseExpr();
    if (lhs == null) return null;
    Node rhs = parseExpr();
    if (rhs == null) return null;
    return new BinaryExpr(lhs, kind, rhs, prec);
  }

  private Node parseIntegerLiteral(String lit) {
    Sv tmp = parseNumber(true);
    if (!tmp.isEmpty() && consumeIf('E')) return new IntegerLiteral(lit, tmp);
    return null;
  }

  // <function-param> ::= fp <CV-Qualifiers> [<number>] _ | fL <number> p <CV-Qualifiers> [<number>] _ | fpT
  private Node parseFunctionParam() {
    if (consumeIf("fpT")) return THIS;
    if (consumeIf("fp")) {
      parseCVQualifiers();
      Sv num = parseNumber(false);
      if (!consumeIf('_')) return null;
      return new FunctionParam(num);
    }
    if (consumeIf("fL")) {
      if (parseNumber(false).isEmpty()) return null;
      if (!consumeIf('p')) return null;
      parseCVQualifiers();
      Sv num = parseNumber(false);
      if (!consumeIf('_')) return null;
      return new FunctionParam(num);
    }
    return null;
  }

  // <expr-primary> ::= L <type> <value number> E | L <type> <value float> E | L <string type> E
  //                ::= L <nullptr type> E | L <lambda type> E | L <mangled-name> E
  private Node parseExprPrimary() {
    if (!consumeIf('L')) return null;
    switch (look()) {
      case 'w' -> {
        ++first;
        return parseIntegerLiteral("wchar_t");
      }
      case 'b' -> {
        if (consumeIf("b0E")) return new BoolExpr(false);
        if (consumeIf("b1E")) return new BoolExpr(true);
        return null;
      }
      case 'c' -> {
        ++first;
        return parseIntegerLiteral("char");
      }
      case 'a' -> {
        ++first;
        return parseIntegerLiteral("signed char");
      }
      case 'h' -> {
        ++first;
        return parseIntegerLiteral("unsigned char");
      }
      case 's' -> {
        ++first;
        return parseIntegerLiteral("short");
      }
      case 't' -> {
        ++first;
        return parseIntegerLiteral("unsigned short");
      }
      case 'i' -> {
        ++first;
        return parseIntegerLiteral("");
      }
      case 'j' -> {
        ++first;
        return parseIntegerLiteral("u");
      }
      case 'l' -> {
        ++first;
        return parseIntegerLiteral("l");
      }
      case 'm' -> {
        ++first;
        return parseIntegerLiteral("ul");
      }
      case 'x' -> {
        ++first;
        return parseIntegerLiteral("ll");
      }
      case 'y' -> {
        ++first;
        return parseIntegerLiteral("ull");
      }
      case 'n' -> {
        ++first;
        return parseIntegerLiteral("__int128");
      }
      case 'o' -> {
        ++first;
        return parseIntegerLiteral("unsigned __int128");
      }
      case 'f' -> {
        ++first;
        return parseFloatingLiteral(8);
      }
      case 'd' -> {
        ++first;
        return parseFloatingLiteral(16);
      }
      case 'e' -> {
        ++first;
        return parseFloatingLiteral(20); // x86-64: an 80-bit long double
      }
      case '_' -> {
        if (consumeIf("_Z")) {
          Node r = parseEncoding();
          if (r != null && consumeIf('E')) return r;
        }
        return null;
      }
      case 'A' -> {
        Node t = parseType();
        if (t == null) return null;
        // The string contents are not part of the mangling.
        if (consumeIf('E')) return new StringLiteral(t);
        return null;
      }
      case 'D' -> {
        if (consumeIf("Dn")) {
          consumeIf('0');
          if (consumeIf('E')) return NULLPTR;
        }
        return null;
      }
      case 'T' -> {
        // Invalid (cxx-abi-dev, August 2011).
        return null;
      }
      case 'U' -> {
        if (look(1) != 'l') return null;
        Node t = parseUnnamedTypeName(null);
        if (t == null || !consumeIf('E')) return null;
        return new LambdaExpr(t);
      }
      default -> {
        // might be a named type
        Node t = parseType();
        if (t == null) return null;
        Sv n = parseNumber(true);
        if (n.isEmpty()) return null;
        if (!consumeIf('E')) return null;
        return new EnumLiteral(t, n);
      }
    }
  }

  private Node parseFloatingLiteral(int n) {
    if (numLeft() <= n) return null;
    for (int i = 0; i < n; i++) {
      int c = s[first + i] & 0xff;
      if (!isDigit(c) && !(c >= 'a' && c <= 'f')) return null;
    }
    Sv data = view(first, first + n);
    first += n;
    if (!consumeIf('E')) return null;
    return new FloatLiteral(data, n);
  }

  // <braced-expression> ::= <expression> | di <field source-name> <braced-expression>
  //                     ::= dx <index expression> <braced-expression>
  //                     ::= dX <range begin expression> <range end expression> <braced-expression>
  private Node parseBracedExpr() {
    if (!enter()) return null;
    Node r = parseBracedExprImpl();
    depth--;
    return r;
  }

  private Node parseBracedExprImpl() {
    if (look() == 'd') {
      switch (look(1)) {
        case 'i' -> {
          first += 2;
          Node field = parseSourceName();
          if (field == null) return null;
          Node init = parseBracedExpr();
          if (init == null) return null;
          return new BracedExpr(field, init, false);
        }
        case 'x' -> {
          first += 2;
          Node index = parseExpr();
          if (index == null) return null;
          Node init = parseBracedExpr();
          if (init == null) return null;
          return new BracedExpr(index, init, true);
        }
        case 'X' -> {
          first += 2;
          Node rangeBegin = parseExpr();
          if (rangeBegin == null) return null;
          Node rangeEnd = parseExpr();
          if (rangeEnd == null) return null;
          Node init = parseBracedExpr();
          if (init == null) return null;
          return new BracedRangeExpr(rangeBegin, rangeEnd, init);
        }
        default -> {
          // an expression
        }
      }
    }
    return parseExpr();
  }

  // <fold-expr> ::= fL <binary-operator-name> <expression> <expression>
  //             ::= fR <binary-operator-name> <expression> <expression>
  //             ::= fl <binary-operator-name> <expression>
  //             ::= fr <binary-operator-name> <expression>
  private Node parseFoldExpr() {
    if (!consumeIf('f')) return null;
    boolean isLeftFold;
    boolean hasInitializer;
    switch (look()) {
      case 'L' -> {
        isLeftFold = true;
        hasInitializer = true;
      }
      case 'R' -> {
        isLeftFold = false;
        hasInitializer = true;
      }
      case 'l' -> {
        isLeftFold = true;
        hasInitializer = false;
      }
      case 'r' -> {
        isLeftFold = false;
        hasInitializer = false;
      }
      default -> {
        return null;
      }
    }
    ++first;

    OperatorInfo op = parseOperatorEncoding();
    if (op == null) return null;
    if (!(op.kind == OP_BINARY || (op.kind == OP_MEMBER && op.name.at(op.name.len() - 1) == '*'))) return null;

    Node pack = parseExpr();
    if (pack == null) return null;
    Node init = null;
    if (hasInitializer) {
      init = parseExpr();
      if (init == null) return null;
    }
    if (isLeftFold && init != null) {
      Node t = pack;
      pack = init;
      init = t;
    }
    return new FoldExpr(isLeftFold, op.symbol, pack, init);
  }

  // <expression> ::= mc <parameter type> <expr> [<offset number>] E
  private Node parsePointerToMemberConversionExpr(int prec) {
    Node ty = parseType();
    if (ty == null) return null;
    Node expr = parseExpr();
    if (expr == null) return null;
    Sv offset = parseNumber(true);
    if (!consumeIf('E')) return null;
    return new PointerToMemberConversionExpr(ty, expr, offset, prec);
  }

  // <expression> ::= so <referent type> <expr> [<offset number>] <union-selector>* [p] E
  // <union-selector> ::= _ [<number>]
  private Node parseSubobjectExpr() {
    Node ty = parseType();
    if (ty == null) return null;
    Node expr = parseExpr();
    if (expr == null) return null;
    Sv offset = parseNumber(true);
    int selectorsBegin = names.size();
    while (consumeIf('_')) names.add(new NameType(parseNumber(false)));
    boolean onePastTheEnd = consumeIf('p');
    if (!consumeIf('E')) return null;
    return new SubobjectExpr(ty, expr, offset, names.popTrailing(selectorsBegin), onePastTheEnd);
  }

  private Node parseConstraintExpr() {
    // Within this expression, all enclosing template parameter lists are in scope.
    boolean saved = hasIncompleteTemplateParameterTracking;
    hasIncompleteTemplateParameterTracking = true;
    Node r = parseExpr();
    hasIncompleteTemplateParameterTracking = saved;
    return r;
  }

  // <expression> ::= rQ <bare-function-type> _ <requirement>+ E | rq <requirement>+ E
  private Node parseRequiresExpr() {
    Node[] params = Node.NONE;
    if (consumeIf("rQ")) {
      int paramsBegin = names.size();
      while (!consumeIf('_')) {
        Node type = parseType();
        if (type == null) return null;
        names.add(type);
      }
      params = names.popTrailing(paramsBegin);
    } else if (!consumeIf("rq")) {
      return null;
    }

    int reqsBegin = names.size();
    do {
      Node constraint = null;
      if (consumeIf('X')) {
        // <requirement> ::= X <expression> [N] [R <type-constraint>]
        Node expr = parseExpr();
        if (expr == null) return null;
        boolean noexcept = consumeIf('N');
        Node typeReq = null;
        if (consumeIf('R')) {
          typeReq = parseName(null);
          if (typeReq == null) return null;
        }
        constraint = new ExprRequirement(expr, noexcept, typeReq);
      } else if (consumeIf('T')) {
        // <requirement> ::= T <type>
        Node type = parseType();
        if (type == null) return null;
        constraint = new TypeRequirement(type);
      } else if (consumeIf('Q')) {
        // <requirement> ::= Q <constraint-expression>
        Node nestedReq = parseExpr();
        if (nestedReq == null) return null;
        constraint = new NestedRequirement(nestedReq);
      }
      if (constraint == null) return null;
      names.add(constraint);
    } while (!consumeIf('E'));
    return new RequiresExpr(params, names.popTrailing(reqsBegin));
  }

  // <expression>: operators, casts, new/delete, literals, parameters, fold expressions, unresolved names.
  private Node parseExpr() {
    if (!enter()) return null;
    Node r = parseExprImpl();
    depth--;
    return r;
  }

  private Node parseExprImpl() {
    boolean global = consumeIf("gs");

    OperatorInfo op = parseOperatorEncoding();
    if (op != null) {
      Sv sym = op.symbol;
      switch (op.kind) {
        case OP_BINARY -> {
          return parseBinaryExpr(sym, op.prec);
        }
        case OP_PREFIX -> {
          return parsePrefixExpr(sym, op.prec);
        }
        case OP_POSTFIX -> {
          if (consumeIf('_')) return parsePrefixExpr(sym, op.prec);
          Node ex = parseExpr();
          if (ex == null) return null;
          return new PostfixExpr(ex, sym, op.prec);
        }
        case OP_ARRAY -> {
          Node base = parseExpr();
          if (base == null) return null;
          Node index = parseExpr();
          if (index == null) return null;
          return new ArraySubscriptExpr(base, index, op.prec);
        }
        case OP_MEMBER -> {
          Node lhs = parseExpr();
          if (lhs == null) return null;
          Node rhs = parseExpr();
          if (rhs == null) return null;
          return new MemberExpr(lhs, sym, rhs, op.prec);
        }
        case OP_NEW -> {
          // [gs] nw <expression>* _ <type> [pi <expression>*] E  (na: new[])
          int exprs = names.size();
          while (!consumeIf('_')) {
            Node ex = parseExpr();
            if (ex == null) return null;
            names.add(ex);
          }
          Node[] exprList = names.popTrailing(exprs);
          Node ty = parseType();
          if (ty == null) return null;
          boolean haveInits = consumeIf("pi");
          int initsBegin = names.size();
          while (!consumeIf('E')) {
            if (!haveInits) return null;
            Node init = parseExpr();
            if (init == null) return null;
            names.add(init);
          }
          Node[] inits = names.popTrailing(initsBegin);
          return new NewExpr(exprList, ty, inits, global, op.flag, op.prec);
        }
        case OP_DEL -> {
          Node ex = parseExpr();
          if (ex == null) return null;
          return new DeleteExpr(ex, global, op.flag, op.prec);
        }
        case OP_CALL -> {
          Node callee = parseExpr();
          if (callee == null) return null;
          int exprsBegin = names.size();
          while (!consumeIf('E')) {
            Node e = parseExpr();
            if (e == null) return null;
            names.add(e);
          }
          return new CallExpr(callee, names.popTrailing(exprsBegin), op.flag, op.prec);
        }
        case OP_CCAST -> {
          // C cast: (type)expr
          boolean saved = tryToParseTemplateArgs;
          tryToParseTemplateArgs = false;
          Node ty = parseType();
          tryToParseTemplateArgs = saved;
          if (ty == null) return null;
          int exprsBegin = names.size();
          boolean isMany = consumeIf('_');
          while (!consumeIf('E')) {
            Node e = parseExpr();
            if (e == null) return null;
            names.add(e);
            if (!isMany) break;
          }
          Node[] exprs = names.popTrailing(exprsBegin);
          if (!isMany && exprs.length != 1) return null;
          return new ConversionExpr(ty, exprs, op.prec);
        }
        case OP_CONDITIONAL -> {
          Node cond = parseExpr();
          if (cond == null) return null;
          Node lhs = parseExpr();
          if (lhs == null) return null;
          Node rhs = parseExpr();
          if (rhs == null) return null;
          return new ConditionalExpr(cond, lhs, rhs, op.prec);
        }
        case OP_NAMED_CAST -> {
          Node ty = parseType();
          if (ty == null) return null;
          Node ex = parseExpr();
          if (ex == null) return null;
          return new CastExpr(sym, ty, ex, op.prec);
        }
        case OP_OF_ID_OP -> {
          // [sizeof/alignof/typeid] ( <type>|<expr> )
          Node arg = op.flag ? parseType() : parseExpr();
          if (arg == null) return null;
          return new EnclosingExpr(sym.toString(), arg, op.prec);
        }
        default -> {
          // OP_NAME_ONLY: not valid as an expression operand.
          return null;
        }
      }
    }

    if (numLeft() < 2) return null;

    if (look() == 'L') return parseExprPrimary();
    if (look() == 'T') return parseTemplateParam();
    if (look() == 'f') {
      // Disambiguate a fold expression from a <function-param>.
      if (look(1) == 'p' || (look(1) == 'L' && isDigit(look(2)))) return parseFunctionParam();
      return parseFoldExpr();
    }
    if (consumeIf("il")) {
      int initsBegin = names.size();
      while (!consumeIf('E')) {
        Node e = parseBracedExpr();
        if (e == null) return null;
        names.add(e);
      }
      return new InitListExpr(null, names.popTrailing(initsBegin));
    }
    if (consumeIf("mc")) return parsePointerToMemberConversionExpr(Node.UNARY);
    if (consumeIf("nx")) {
      Node ex = parseExpr();
      if (ex == null) return null;
      return new EnclosingExpr("noexcept ", ex, Node.UNARY);
    }
    if (look() == 'r' && (look(1) == 'q' || look(1) == 'Q')) return parseRequiresExpr();
    if (consumeIf("so")) return parseSubobjectExpr();
    if (consumeIf("sp")) {
      Node child = parseExpr();
      if (child == null) return null;
      return new ParameterPackExpansion(child);
    }
    if (consumeIf("sZ")) {
      if (look() == 'T') {
        Node r = parseTemplateParam();
        if (r == null) return null;
        return new SizeofParamPackExpr(r);
      }
      Node fp = parseFunctionParam();
      if (fp == null) return null;
      return new EnclosingExpr("sizeof... ", fp);
    }
    if (consumeIf("sP")) {
      int argsBegin = names.size();
      while (!consumeIf('E')) {
        Node arg = parseTemplateArg();
        if (arg == null) return null;
        names.add(arg);
      }
      return new EnclosingExpr("sizeof... ", new NodeArrayNode(names.popTrailing(argsBegin)));
    }
    if (consumeIf("tl")) {
      Node ty = parseType();
      if (ty == null) return null;
      int initsBegin = names.size();
      while (!consumeIf('E')) {
        Node e = parseBracedExpr();
        if (e == null) return null;
        names.add(e);
      }
      return new InitListExpr(ty, names.popTrailing(initsBegin));
    }
    if (consumeIf("tr")) return THROW;
    if (consumeIf("tw")) {
      Node ex = parseExpr();
      if (ex == null) return null;
      return new ThrowExpr(ex);
    }
    if (consumeIf('u')) {
      Node name = parseSourceName();
      if (name == null) return null;
      // The legacy __uuidof mangling: 't' and 'z' where a <template-arg> would be.
      boolean isUuid = false;
      Node uuid = null;
      if (name.getBaseName().contentEquals("__uuidof")) {
        if (consumeIf('t')) {
          uuid = parseType();
          isUuid = true;
        } else if (consumeIf('z')) {
          uuid = parseExpr();
          isUuid = true;
        }
      }
      int exprsBegin = names.size();
      if (isUuid) {
        if (uuid == null) return null;
        names.add(uuid);
      } else {
        while (!consumeIf('E')) {
          Node e = parseTemplateArg();
          if (e == null) return null;
          names.add(e);
        }
      }
      return new CallExpr(name, names.popTrailing(exprsBegin), false, Node.POSTFIX);
    }

    // Only unresolved names remain.
    return parseUnresolvedName(global);
  }

  // <call-offset> ::= h <nv-offset> _ | v <v-offset> _ ; true on failure.
  private boolean parseCallOffset() {
    // The offsets are not printed.
    if (consumeIf('h')) return parseNumber(true).isEmpty() || !consumeIf('_');
    if (consumeIf('v')) {
      return parseNumber(true).isEmpty() || !consumeIf('_') || parseNumber(true).isEmpty() || !consumeIf('_');
    }
    return true;
  }

  // <special-name> ::= TV <type> | TT <type> | TI <type> | TS <type> | TA <template-arg>
  //                ::= Tc <call-offset> <call-offset> <base encoding> | T <call-offset> <base encoding>
  //                ::= GV <object name> | TW <object name> | TH <object name>
  //                ::= GR <object name> [<seq-id>] _ | TC <first type> <number> _ <second type>
  //                ::= GI <module name>
  private Node parseSpecialName() {
    switch (look()) {
      case 'T' -> {
        switch (look(1)) {
          case 'A' -> {
            first += 2;
            Node arg = parseTemplateArg();
            if (arg == null) return null;
            return new SpecialName("template parameter object for ", arg);
          }
          case 'V' -> {
            first += 2;
            Node ty = parseType();
            if (ty == null) return null;
            return new SpecialName("vtable for ", ty);
          }
          case 'T' -> {
            first += 2;
            Node ty = parseType();
            if (ty == null) return null;
            return new SpecialName("VTT for ", ty);
          }
          case 'I' -> {
            first += 2;
            Node ty = parseType();
            if (ty == null) return null;
            return new SpecialName("typeinfo for ", ty);
          }
          case 'S' -> {
            first += 2;
            Node ty = parseType();
            if (ty == null) return null;
            return new SpecialName("typeinfo name for ", ty);
          }
          case 'c' -> {
            first += 2;
            if (parseCallOffset() || parseCallOffset()) return null;
            Node encoding = parseEncoding();
            if (encoding == null) return null;
            return new SpecialName("covariant return thunk to ", encoding);
          }
          case 'C' -> {
            first += 2;
            Node firstType = parseType();
            if (firstType == null) return null;
            if (parseNumber(true).isEmpty() || !consumeIf('_')) return null;
            Node secondType = parseType();
            if (secondType == null) return null;
            return new CtorVtableSpecialName(secondType, firstType);
          }
          case 'W' -> {
            first += 2;
            Node name = parseName(null);
            if (name == null) return null;
            return new SpecialName("thread-local wrapper routine for ", name);
          }
          case 'H' -> {
            first += 2;
            Node name = parseName(null);
            if (name == null) return null;
            return new SpecialName("thread-local initialization routine for ", name);
          }
          default -> {
            ++first;
            boolean isVirt = look() == 'v';
            if (parseCallOffset()) return null;
            Node baseEncoding = parseEncoding();
            if (baseEncoding == null) return null;
            return new SpecialName(isVirt ? "virtual thunk to " : "non-virtual thunk to ", baseEncoding);
          }
        }
      }
      case 'G' -> {
        switch (look(1)) {
          case 'V' -> {
            first += 2;
            Node name = parseName(null);
            if (name == null) return null;
            return new SpecialName("guard variable for ", name);
          }
          case 'R' -> {
            first += 2;
            Node name = parseName(null);
            if (name == null) return null;
            boolean parsedSeqId = !parseSeqId();
            if (!consumeIf('_') && parsedSeqId) return null;
            return new SpecialName("reference temporary for ", name);
          }
          case 'I' -> {
            first += 2;
            ModuleName module = parseModuleNameOpt(null);
            if (module == MODULE_FAILED || module == null) return null;
            return new SpecialName("initializer for module ", module);
          }
          default -> {
            return null;
          }
        }
      }
      default -> {
        return null;
      }
    }
  }

  // <encoding> ::= <function name> <bare-function-type> [Q <requires-clause expr>]
  //            ::= <data name> | <special-name>
  private Node parseEncoding() {
    if (!enter()) return null;
    // The template parameters of an encoding are unrelated to those of the enclosing context.
    ArrayList<NodeVec> savedParams = templateParams;
    NodeVec savedOuter = outerTemplateParams;
    templateParams = new ArrayList<>(4);
    outerTemplateParams = new NodeVec(8);
    try {
      return parseEncodingImpl();
    } finally {
      templateParams = savedParams;
      outerTemplateParams = savedOuter;
      depth--;
    }
  }

  private boolean isEndOfEncoding() {
    // The chars that can follow an <encoding>; none can start a <type>.
    return numLeft() == 0 || look() == 'E' || look() == '.' || look() == '_';
  }

  private Node parseEncodingImpl() {
    if (look() == 'G' || look() == 'T') return parseSpecialName();

    NameState nameInfo = new NameState(forwardTemplateRefs.size());
    Node name = parseName(nameInfo);
    if (name == null) return null;

    if (resolveForwardTemplateRefs(nameInfo)) return null;

    if (isEndOfEncoding()) return name;

    Node attrs = null;
    if (consumeIf("Ua9enable_ifI")) {
      int beforeArgs = names.size();
      while (!consumeIf('E')) {
        Node arg = parseTemplateArg();
        if (arg == null) return null;
        names.add(arg);
      }
      attrs = new EnableIfAttr(names.popTrailing(beforeArgs));
    }

    Node returnType = null;
    if (!nameInfo.ctorDtorConversion && nameInfo.endsWithTemplateArgs) {
      returnType = parseType();
      if (returnType == null) return null;
    }

    Node[] params = Node.NONE;
    if (!consumeIf('v')) {
      int paramsBegin = names.size();
      do {
        Node ty = parseType();
        if (ty == null) return null;
        boolean isFirstParam = paramsBegin == names.size();
        if (nameInfo.hasExplicitObjectParameter && isFirstParam) ty = new ExplicitObjectParameter(ty);
        names.add(ty);
      } while (!isEndOfEncoding() && look() != 'Q');
      params = names.popTrailing(paramsBegin);
    }

    Node requires = null;
    if (consumeIf('Q')) {
      requires = parseConstraintExpr();
      if (requires == null) return null;
    }

    return new FunctionEncoding(returnType, name, params, attrs, requires, nameInfo.cvQualifiers,
        nameInfo.referenceQualifier);
  }

  /** Resolves the forward references made while parsing the name; true on failure. */
  private boolean resolveForwardTemplateRefs(NameState state) {
    int e = forwardTemplateRefs.size();
    for (int i = state.forwardTemplateRefsBegin; i < e; ++i) {
      ForwardTemplateReference ref = forwardTemplateRefs.get(i);
      long idx = ref.index;
      if (templateParams.isEmpty() || templateParams.get(0) == null
          || Long.compareUnsigned(idx, templateParams.get(0).size()) >= 0) {
        return true;
      }
      ref.ref = templateParams.get(0).get((int) idx);
    }
    while (forwardTemplateRefs.size() > state.forwardTemplateRefsBegin) {
      forwardTemplateRefs.remove(forwardTemplateRefs.size() - 1);
    }
    return false;
  }

  // <substitution> ::= S <seq-id> _ | S_ | Sa | Sb | Ss | Si | So | Sd   (St is handled by callers)
  private Node parseSubstitution() {
    if (!consumeIf('S')) return null;

    int c = look();
    if (c >= 'a' && c <= 'z') {
      int kind;
      switch (c) {
        case 'a' -> kind = Node.SS_ALLOCATOR;
        case 'b' -> kind = Node.SS_BASIC_STRING;
        case 'd' -> kind = Node.SS_IOSTREAM;
        case 'i' -> kind = Node.SS_ISTREAM;
        case 'o' -> kind = Node.SS_OSTREAM;
        case 's' -> kind = Node.SS_STRING;
        default -> {
          return null;
        }
      }
      ++first;
      Node specialSub = new SpecialSubstitution(kind);
      // Itanium C++ ABI 5.1.2: ABI tags on a built-in substitution make a substitutable component.
      Node withTags = parseAbiTags(specialSub);
      if (withTags != specialSub) {
        subs.add(withTags);
        specialSub = withTags;
      }
      return specialSub;
    }

    //                ::= S_
    if (consumeIf('_')) {
      if (subs.isEmpty()) return null;
      return subs.get(0);
    }

    //                ::= S <seq-id> _
    if (parseSeqId()) return null;
    long index = numberOut + 1;
    if (!consumeIf('_') || Long.compareUnsigned(index, subs.size()) >= 0) return null;
    return subs.get((int) index);
  }

  // <template-param> ::= T_ | T <parameter-2 non-negative number> _ | TL <level-1> __
  //                  ::= TL <level-1> _ <parameter-2 non-negative number> _
  private Node parseTemplateParam() {
    int begin = first;
    if (!consumeIf('T')) return null;

    long level = 0;
    if (consumeIf('L')) {
      if (parsePositiveInteger()) return null;
      level = numberOut + 1;
      if (!consumeIf('_')) return null;
    }

    long index = 0;
    if (!consumeIf('_')) {
      if (parsePositiveInteger()) return null;
      index = numberOut + 1;
      if (!consumeIf('_')) return null;
    }

    // Enclosing template parameter levels are not tracked well enough to substitute them in a
    // <constraint-expression>: print the parameter's mangling instead.
    if (hasIncompleteTemplateParameterTracking) return new NameType(view(begin, first - 1));

    // In a conversion operator's type, a <template-param> may refer to a <template-arg> further
    // ahead; only at the outermost level.
    if (permitForwardTemplateReferences && level == 0) {
      ForwardTemplateReference forwardRef = new ForwardTemplateReference(index);
      forwardTemplateRefs.add(forwardRef);
      return forwardRef;
    }

    if (Long.compareUnsigned(level, templateParams.size()) >= 0 || templateParams.get((int) level) == null
        || Long.compareUnsigned(index, templateParams.get((int) level).size()) >= 0) {
      // Itanium ABI 5.1.8: in a generic lambda, 'auto' parameters are mangled as the
      // corresponding artificial template type parameter.
      if (parsingLambdaParamsAtLevel == level && Long.compareUnsigned(level, templateParams.size()) <= 0) {
        // Popped again by the lambda's scope in parseUnnamedTypeName.
        if (level == templateParams.size()) templateParams.add(null);
        return AUTO;
      }
      return null;
    }
    return templateParams.get((int) level).get((int) index);
  }

  private boolean isTemplateParamDecl() {
    int c = look(1);
    return look() == 'T' && (c == 'y' || c == 'p' || c == 't' || c == 'n' || c == 'k');
  }

  private Node inventTemplateParamName(int kind, NodeVec params) {
    long index = numSyntheticTemplateParameters[kind]++;
    Node n = new SyntheticTemplateParamName(kind, index);
    if (params != null) params.add(n);
    return n;
  }

  // <template-param-decl> ::= Ty | Tk <concept name> [<template-args>] | Tn <type>
  //                       ::= Tt <template-param-decl>* E | Tp <template-param-decl>
  private Node parseTemplateParamDecl(NodeVec params) {
    if (!enter()) return null;
    Node r = parseTemplateParamDeclImpl(params);
    depth--;
    return r;
  }

  private Node parseTemplateParamDeclImpl(NodeVec params) {
    if (consumeIf("Ty")) {
      return new TypeTemplateParamDecl(inventTemplateParamName(Node.PARAM_TYPE, params));
    }
    if (consumeIf("Tk")) {
      // Enclosing levels are not tracked well enough to substitute parameters in the constraint.
      boolean saved = hasIncompleteTemplateParameterTracking;
      hasIncompleteTemplateParameterTracking = true;
      try {
        Node constraint = parseName(null);
        if (constraint == null) return null;
        Node name = inventTemplateParamName(Node.PARAM_TYPE, params);
        return new ConstrainedTypeTemplateParamDecl(constraint, name);
      } finally {
        hasIncompleteTemplateParameterTracking = saved;
      }
    }
    if (consumeIf("Tn")) {
      Node name = inventTemplateParamName(Node.PARAM_NON_TYPE, params);
      Node type = parseType();
      if (type == null) return null;
      return new NonTypeTemplateParamDecl(name, type);
    }
    if (consumeIf("Tt")) {
      Node name = inventTemplateParamName(Node.PARAM_TEMPLATE, params);
      int paramsBegin = names.size();
      int oldNumLists = templateParams.size();
      NodeVec inner = new NodeVec(4);
      templateParams.add(inner);
      try {
        Node requires = null;
        while (!consumeIf('E')) {
          Node p = parseTemplateParamDecl(inner);
          if (p == null) return null;
          names.add(p);
          if (consumeIf('Q')) {
            requires = parseConstraintExpr();
            if (requires == null || !consumeIf('E')) return null;
            break;
          }
        }
        Node[] innerParams = names.popTrailing(paramsBegin);
        return new TemplateTemplateParamDecl(name, innerParams, requires);
      } finally {
        while (templateParams.size() > oldNumLists) templateParams.remove(templateParams.size() - 1);
      }
    }
    if (consumeIf("Tp")) {
      Node p = parseTemplateParamDecl(params);
      if (p == null) return null;
      return new TemplateParamPackDecl(p);
    }
    return null;
  }

  // <template-arg> ::= <type> | X <expression> E | <expr-primary> | J <template-arg>* E
  //                ::= LZ <encoding> E | <template-param-decl> <template-arg>
  private Node parseTemplateArg() {
    if (!enter()) return null;
    Node r = parseTemplateArgImpl();
    depth--;
    return r;
  }

  private Node parseTemplateArgImpl() {
    switch (look()) {
      case 'X' -> {
        ++first;
        Node arg = parseExpr();
        if (arg == null || !consumeIf('E')) return null;
        return arg;
      }
      case 'J' -> {
        ++first;
        int argsBegin = names.size();
        while (!consumeIf('E')) {
          Node arg = parseTemplateArg();
          if (arg == null) return null;
          names.add(arg);
        }
        return new TemplateArgumentPack(names.popTrailing(argsBegin));
      }
      case 'L' -> {
        if (look(1) == 'Z') {
          first += 2;
          Node arg = parseEncoding();
          if (arg == null || !consumeIf('E')) return null;
          return arg;
        }
        return parseExprPrimary();
      }
      case 'T' -> {
        if (!isTemplateParamDecl()) return parseType();
        Node param = parseTemplateParamDecl(null);
        if (param == null) return null;
        Node arg = parseTemplateArg();
        if (arg == null) return null;
        return new TemplateParamQualifiedArg(param, arg);
      }
      default -> {
        return parseType();
      }
    }
  }

  // <template-args> ::= I <template-arg>* [Q <requires-clause expr>] E
  private Node parseTemplateArgs(boolean tagTemplates) {
    if (!consumeIf('I')) return null;

    // <template-params> refer to the innermost <template-args>: clear any outer args.
    if (tagTemplates) {
      templateParams.clear();
      templateParams.add(outerTemplateParams);
      outerTemplateParams.clear();
    }

    int argsBegin = names.size();
    Node requires = null;
    while (!consumeIf('E')) {
      Node arg = parseTemplateArg();
      if (arg == null) return null;
      names.add(arg);
      if (tagTemplates) {
        Node tableEntry = arg;
        if (arg instanceof TemplateParamQualifiedArg q) tableEntry = q.arg;
        if (arg instanceof TemplateArgumentPack p) tableEntry = new ParameterPack(p.elements);
        outerTemplateParams.add(tableEntry);
      }
      if (consumeIf('Q')) {
        requires = parseConstraintExpr();
        if (requires == null || !consumeIf('E')) return null;
        break;
      }
    }
    return new TemplateArgs(names.popTrailing(argsBegin), requires);
  }
}
