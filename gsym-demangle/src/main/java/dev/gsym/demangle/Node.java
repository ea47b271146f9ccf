package dev.gsym.demangle;

/**
 * A node of the Itanium C++ demangler's syntax tree. The parser ({@link ItaniumParser}) builds the
 * tree, then {@link #print} writes the demangled name.
 *
 * <p>The node kinds and their printing rules follow LLVM's ItaniumDemangle.h (the demangler of
 * llvm-cxxfilt and llvm-symbolizer, Apache-2.0 WITH LLVM-exception) one for one, because the goal
 * is llvm's exact text: where C++ types are written around their declarator ({@code int (*)(char)},
 * {@code char (&)[4]}) a node prints a left part and a right part; expressions are parenthesized by
 * precedence; template argument packs expand through {@link OutputBuffer#currentPackIndex}.
 * Cycles that hostile input can create (a forward template reference that refers to itself, a
 * reference collapsing into itself) are cut as llvm cuts them, and every call is counted by the
 * {@link OutputBuffer}, so no input prints forever.
 */
abstract sealed class Node {
  // Cache values (llvm's Node::Cache).
  static final byte YES = 0;
  static final byte NO = 1;
  static final byte UNKNOWN = 2;

  // Operator precedence for expressions (llvm's Node::Prec), strongest first.
  static final int PRIMARY = 0;
  static final int POSTFIX = 1;
  static final int UNARY = 2;
  static final int CAST = 3;
  static final int PTRMEM = 4;
  static final int MULTIPLICATIVE = 5;
  static final int ADDITIVE = 6;
  static final int SHIFT = 7;
  static final int SPACESHIP = 8;
  static final int RELATIONAL = 9;
  static final int EQUALITY = 10;
  static final int AND = 11;
  static final int XOR = 12;
  static final int IOR = 13;
  static final int ANDIF = 14;
  static final int ORIF = 15;
  static final int CONDITIONAL = 16;
  static final int ASSIGN = 17;
  static final int COMMA = 18;
  static final int DEFAULT = 19;

  // Qualifiers.
  static final int QUAL_CONST = 1;
  static final int QUAL_VOLATILE = 2;
  static final int QUAL_RESTRICT = 4;

  // Function reference qualifiers.
  static final int REF_NONE = 0;
  static final int REF_LVALUE = 1;
  static final int REF_RVALUE = 2;

  static final Node[] NONE = new Node[0];

  final int prec;
  byte rhsCache;
  byte arrayCache;
  byte functionCache;

  Node(int prec, byte rhs, byte array, byte function) {
    this.prec = prec;
    this.rhsCache = rhs;
    this.arrayCache = array;
    this.functionCache = function;
  }

  Node() {
    this(PRIMARY, NO, NO, NO);
  }

  Node(int prec) {
    this(prec, NO, NO, NO);
  }

  final boolean hasRHSComponent(OutputBuffer ob) {
    if (rhsCache != UNKNOWN) return rhsCache == YES;
    ob.enter();
    boolean r = hasRHSComponentSlow(ob);
    ob.exit();
    return r;
  }

  final boolean hasArray(OutputBuffer ob) {
    if (arrayCache != UNKNOWN) return arrayCache == YES;
    ob.enter();
    boolean r = hasArraySlow(ob);
    ob.exit();
    return r;
  }

  final boolean hasFunction(OutputBuffer ob) {
    if (functionCache != UNKNOWN) return functionCache == YES;
    ob.enter();
    boolean r = hasFunctionSlow(ob);
    ob.exit();
    return r;
  }

  boolean hasRHSComponentSlow(OutputBuffer ob) {
    return false;
  }

  boolean hasArraySlow(OutputBuffer ob) {
    return false;
  }

  boolean hasFunctionSlow(OutputBuffer ob) {
    return false;
  }

  /** Digs through glue nodes (packs, forward references) to the node that prints. */
  Node getSyntaxNode(OutputBuffer ob) {
    return this;
  }

  /** Prints as an operand, parenthesized if this binds [strictly] weaker than {@code p}. */
  final void printAsOperand(OutputBuffer ob, int p, boolean strictlyWorse) {
    boolean paren = prec >= p + (strictlyWorse ? 1 : 0);
    if (paren) ob.printOpen();
    print(ob);
    if (paren) ob.printClose();
  }

  final void printAsOperand(OutputBuffer ob) {
    printAsOperand(ob, DEFAULT, false);
  }

  final void print(OutputBuffer ob) {
    ob.printLeft(this);
    if (rhsCache != NO) ob.printRight(this);
  }

  /** Prints an initializer list of this type specially; false if nothing was printed. */
  boolean printInitListAsType(OutputBuffer ob, Node[] elements) {
    return false;
  }

  Sv getBaseName() {
    return Sv.EMPTY;
  }

  /** The part before the name in a declarator (called through OutputBuffer.printLeft). */
  abstract void printLeft(OutputBuffer ob);

  /** The part after the name in a declarator (called through OutputBuffer.printRight). */
  void printRight(OutputBuffer ob) {}

  // ---- helpers ----

  static void printWithComma(Node[] elements, OutputBuffer ob) {
    boolean firstElement = true;
    for (Node e : elements) {
      int beforeComma = ob.position();
      if (!firstElement) ob.append(", ");
      int afterComma = ob.position();
      e.printAsOperand(ob, COMMA, false);
      // An empty parameter pack expansion: erase the comma just printed.
      if (afterComma == ob.position()) {
        ob.setPosition(beforeComma);
        continue;
      }
      firstElement = false;
    }
  }

  /** Prints integer literals as a string literal ({@code "abc"}); false (nothing printed) if they are not all 0..255. */
  static boolean printAsString(Node[] elements, OutputBuffer ob) {
    int startPos = ob.position();
    ob.append('"');
    boolean lastWasNumericEscape = false;
    for (Node element : elements) {
      if (!(element instanceof IntegerLiteral il)) {
        ob.setPosition(startPos);
        return false;
      }
      int value = 0;
      Sv v = il.value;
      for (int i = 0; i < v.len(); i++) {
        int c = v.at(i);
        if (c < '0' || c > '9' || value > 25) {
          ob.setPosition(startPos);
          return false;
        }
        value = value * 10 + (c - '0');
      }
      if (value > 255) {
        ob.setPosition(startPos);
        return false;
      }
      // Insert a "" to avoid accidentally extending a numeric escape.
      if (lastWasNumericEscape
          && ((value >= '0' && value <= '9') || (value >= 'a' && value <= 'f') || (value >= 'A' && value <= 'F'))) {
        ob.append("\"\"");
      }
      lastWasNumericEscape = false;
      switch (value) {
        case 7 -> ob.append("\\a");
        case 8 -> ob.append("\\b");
        case 12 -> ob.append("\\f");
        case 10 -> ob.append("\\n");
        case 13 -> ob.append("\\r");
        case 9 -> ob.append("\\t");
        case 11 -> ob.append("\\v");
        case '"' -> ob.append("\\\"");
        case '\\' -> ob.append("\\\\");
        default -> {
          if (value < 32 || value == 127) {
            String hex = "0123456789ABCDEF";
            ob.append('\\');
            if (value > 7) ob.append('x');
            if (value >= 16) ob.append(hex.charAt(value >> 4));
            ob.append(hex.charAt(value & 0xF));
            lastWasNumericEscape = true;
          } else {
            ob.appendByte(value);
          }
        }
      }
    }
    ob.append('"');
    return true;
  }

  static void printQuals(OutputBuffer ob, int quals) {
    if ((quals & QUAL_CONST) != 0) ob.append(" const");
    if ((quals & QUAL_VOLATILE) != 0) ob.append(" volatile");
    if ((quals & QUAL_RESTRICT) != 0) ob.append(" restrict");
  }

  static void printRefQual(OutputBuffer ob, int refQual) {
    if (refQual == REF_LVALUE) ob.append(" &");
    else if (refQual == REF_RVALUE) ob.append(" &&");
  }

  // ---- nodes ----

  static final class NodeArrayNode extends Node {
    final Node[] array;

    NodeArrayNode(Node[] array) {
      this.array = array;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      printWithComma(array, ob);
    }
  }

  static final class DotSuffix extends Node {
    final Node prefix;
    final Sv suffix;

    DotSuffix(Node prefix, Sv suffix) {
      this.prefix = prefix;
      this.suffix = suffix;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      prefix.print(ob);
      ob.append(" (").append(suffix).append(")");
    }
  }

  static final class VendorExtQualType extends Node {
    final Node ty;
    final Sv ext;
    final Node ta;

    VendorExtQualType(Node ty, Sv ext, Node ta) {
      this.ty = ty;
      this.ext = ext;
      this.ta = ta;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ty.print(ob);
      ob.append(" ").append(ext);
      if (ta != null) ta.print(ob);
    }
  }

  static final class QualType extends Node {
    final int quals;
    final Node child;

    QualType(Node child, int quals) {
      super(PRIMARY, child.rhsCache, child.arrayCache, child.functionCache);
      this.quals = quals;
      this.child = child;
    }

    @Override
    boolean hasRHSComponentSlow(OutputBuffer ob) {
      return child.hasRHSComponent(ob);
    }

    @Override
    boolean hasArraySlow(OutputBuffer ob) {
      return child.hasArray(ob);
    }

    @Override
    boolean hasFunctionSlow(OutputBuffer ob) {
      return child.hasFunction(ob);
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.printLeft(child);
      printQuals(ob, quals);
    }

    @Override
    void printRight(OutputBuffer ob) {
      ob.printRight(child);
    }
  }

  static final class ConversionOperatorType extends Node {
    final Node ty;

    ConversionOperatorType(Node ty) {
      this.ty = ty;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("operator ");
      ty.print(ob);
    }
  }

  static final class PostfixQualifiedType extends Node {
    final Node ty;
    final String postfix;

    PostfixQualifiedType(Node ty, String postfix) {
      this.ty = ty;
      this.postfix = postfix;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.printLeft(ty);
      ob.append(postfix);
    }
  }

  static final class NameType extends Node {
    final Sv name;

    NameType(Sv name) {
      this.name = name;
    }

    NameType(String name) {
      this(Sv.of(name));
    }

    @Override
    Sv getBaseName() {
      return name;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append(name);
    }
  }

  static final class BitIntType extends Node {
    final Node size;
    final boolean signed;

    BitIntType(Node size, boolean signed) {
      this.size = size;
      this.signed = signed;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      if (!signed) ob.append("unsigned ");
      ob.append("_BitInt");
      ob.printOpen();
      size.printAsOperand(ob);
      ob.printClose();
    }
  }

  static final class ElaboratedTypeSpefType extends Node {
    final String kind;
    final Node child;

    ElaboratedTypeSpefType(String kind, Node child) {
      this.kind = kind;
      this.child = child;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append(kind).append(' ');
      child.print(ob);
    }
  }

  static final class TransformedType extends Node {
    final Sv transform;
    final Node baseType;

    TransformedType(Sv transform, Node baseType) {
      this.transform = transform;
      this.baseType = baseType;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append(transform).append('(');
      baseType.print(ob);
      ob.append(')');
    }
  }

  static final class AbiTagAttr extends Node {
    final Node base;
    final Sv tag;

    AbiTagAttr(Node base, Sv tag) {
      super(PRIMARY, base.rhsCache, base.arrayCache, base.functionCache);
      this.base = base;
      this.tag = tag;
    }

    @Override
    Sv getBaseName() {
      return base.getBaseName();
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.printLeft(base);
      ob.append("[abi:").append(tag).append("]");
    }
  }

  static final class EnableIfAttr extends Node {
    final Node[] conditions;

    EnableIfAttr(Node[] conditions) {
      this.conditions = conditions;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append(" [enable_if:");
      printWithComma(conditions, ob);
      ob.append(']');
    }
  }

  static final class ObjCProtoName extends Node {
    final Node ty;
    final Sv protocol;

    ObjCProtoName(Node ty, Sv protocol) {
      this.ty = ty;
      this.protocol = protocol;
    }

    boolean isObjCObject() {
      return ty instanceof NameType n && n.name.contentEquals("objc_object");
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ty.print(ob);
      ob.append("<").append(protocol).append(">");
    }
  }

  static final class PointerType extends Node {
    final Node pointee;

    PointerType(Node pointee) {
      super(PRIMARY, pointee.rhsCache, NO, NO);
      this.pointee = pointee;
    }

    @Override
    boolean hasRHSComponentSlow(OutputBuffer ob) {
      return pointee.hasRHSComponent(ob);
    }

    private boolean isObjCId() {
      return pointee instanceof ObjCProtoName p && p.isObjCObject();
    }

    @Override
    void printLeft(OutputBuffer ob) {
      // objc_object<SomeProtocol>* is written id<SomeProtocol>.
      if (!isObjCId()) {
        ob.printLeft(pointee);
        if (pointee.hasArray(ob)) ob.append(" ");
        if (pointee.hasArray(ob) || pointee.hasFunction(ob)) ob.append("(");
        ob.append("*");
      } else {
        ob.append("id<").append(((ObjCProtoName) pointee).protocol).append(">");
      }
    }

    @Override
    void printRight(OutputBuffer ob) {
      if (!isObjCId()) {
        if (pointee.hasArray(ob) || pointee.hasFunction(ob)) ob.append(")");
        ob.printRight(pointee);
      }
    }
  }

  /** An lvalue ({@code rvalue == false}) or rvalue reference; references to references collapse. */
  static final class ReferenceType extends Node {
    final Node pointee;
    final boolean rvalue;
    private boolean printing;
    // The result of collapse(): kind and target (null when a cycle was found).
    private boolean collapsedRvalue;

    ReferenceType(Node pointee, boolean rvalue) {
      super(PRIMARY, pointee.rhsCache, NO, NO);
      this.pointee = pointee;
      this.rvalue = rvalue;
    }

    /**
     * Digs through references to references: rvalue to rvalue stays rvalue, anything else becomes
     * lvalue. A forward reference and a substitution from ill-formed input may form a cycle, which
     * the tortoise-and-hare check below detects (returns null).
     */
    private Node collapse(OutputBuffer ob) {
      boolean kind = rvalue;
      Node target = pointee;
      java.util.ArrayList<Node> prev = null;
      for (;;) {
        ob.step();
        Node sn = target.getSyntaxNode(ob);
        if (!(sn instanceof ReferenceType rt)) break;
        target = rt.pointee;
        kind = kind && rt.rvalue;
        if (prev == null) prev = new java.util.ArrayList<>();
        prev.add(target);
        if (prev.size() > 1 && target == prev.get((prev.size() - 1) / 2)) {
          target = null;
          break;
        }
      }
      collapsedRvalue = kind;
      return target;
    }

    @Override
    boolean hasRHSComponentSlow(OutputBuffer ob) {
      return pointee.hasRHSComponent(ob);
    }

    @Override
    void printLeft(OutputBuffer ob) {
      if (printing) return;
      printing = true;
      Node c = collapse(ob);
      if (c != null) {
        boolean kind = collapsedRvalue;
        ob.printLeft(c);
        if (c.hasArray(ob)) ob.append(" ");
        if (c.hasArray(ob) || c.hasFunction(ob)) ob.append("(");
        ob.append(kind ? "&&" : "&");
      }
      printing = false;
    }

    @Override
    void printRight(OutputBuffer ob) {
      if (printing) return;
      printing = true;
      Node c = collapse(ob);
      if (c != null) {
        if (c.hasArray(ob) || c.hasFunction(ob)) ob.append(")");
        ob.printRight(c);
      }
      printing = false;
    }
  }

  static final class PointerToMemberType extends Node {
    final Node classType;
    final Node memberType;

    PointerToMemberType(Node classType, Node memberType) {
      super(PRIMARY, memberType.rhsCache, NO, NO);
      this.classType = classType;
      this.memberType = memberType;
    }

    @Override
    boolean hasRHSComponentSlow(OutputBuffer ob) {
      return memberType.hasRHSComponent(ob);
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.printLeft(memberType);
      if (memberType.hasArray(ob) || memberType.hasFunction(ob)) ob.append("(");
      else ob.append(" ");
      classType.print(ob);
      ob.append("::*");
    }

    @Override
    void printRight(OutputBuffer ob) {
      if (memberType.hasArray(ob) || memberType.hasFunction(ob)) ob.append(")");
      ob.printRight(memberType);
    }
  }

  static final class ArrayType extends Node {
    final Node base;
    final Node dimension;

    ArrayType(Node base, Node dimension) {
      super(PRIMARY, YES, YES, NO);
      this.base = base;
      this.dimension = dimension;
    }

    @Override
    boolean hasRHSComponentSlow(OutputBuffer ob) {
      return true;
    }

    @Override
    boolean hasArraySlow(OutputBuffer ob) {
      return true;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.printLeft(base);
    }

    @Override
    void printRight(OutputBuffer ob) {
      if (ob.back() != ']') ob.append(" ");
      ob.append("[");
      if (dimension != null) dimension.print(ob);
      ob.append("]");
      ob.printRight(base);
    }

    @Override
    boolean printInitListAsType(OutputBuffer ob, Node[] elements) {
      if (base instanceof NameType n && n.name.contentEquals("char")) return printAsString(elements, ob);
      return false;
    }
  }

  static final class FunctionType extends Node {
    final Node ret;
    final Node[] params;
    final int cvQuals;
    final int refQual;
    final Node exceptionSpec;

    FunctionType(Node ret, Node[] params, int cvQuals, int refQual, Node exceptionSpec) {
      super(PRIMARY, YES, NO, YES);
      this.ret = ret;
      this.params = params;
      this.cvQuals = cvQuals;
      this.refQual = refQual;
      this.exceptionSpec = exceptionSpec;
    }

    @Override
    boolean hasRHSComponentSlow(OutputBuffer ob) {
      return true;
    }

    @Override
    boolean hasFunctionSlow(OutputBuffer ob) {
      return true;
    }

    // int (*f(float))(char): the return type's left, then the parameters, then its right.
    @Override
    void printLeft(OutputBuffer ob) {
      ob.printLeft(ret);
      ob.append(" ");
    }

    @Override
    void printRight(OutputBuffer ob) {
      ob.printOpen();
      printWithComma(params, ob);
      ob.printClose();
      ob.printRight(ret);
      printQuals(ob, cvQuals);
      printRefQual(ob, refQual);
      if (exceptionSpec != null) {
        ob.append(' ');
        exceptionSpec.print(ob);
      }
    }
  }

  static final class NoexceptSpec extends Node {
    final Node e;

    NoexceptSpec(Node e) {
      this.e = e;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("noexcept");
      ob.printOpen();
      e.printAsOperand(ob);
      ob.printClose();
    }
  }

  static final class DynamicExceptionSpec extends Node {
    final Node[] types;

    DynamicExceptionSpec(Node[] types) {
      this.types = types;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("throw");
      ob.printOpen();
      printWithComma(types, ob);
      ob.printClose();
    }
  }

  /** The explicit object parameter of C++23 ({@code this Foo&& self}). */
  static final class ExplicitObjectParameter extends Node {
    final Node base;

    ExplicitObjectParameter(Node base) {
      this.base = base;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("this ");
      base.print(ob);
    }
  }

  static final class FunctionEncoding extends Node {
    final Node ret;
    final Node name;
    final Node[] params;
    final Node attrs;
    final Node requires;
    final int cvQuals;
    final int refQual;

    FunctionEncoding(Node ret, Node name, Node[] params, Node attrs, Node requires, int cvQuals, int refQual) {
      super(PRIMARY, YES, NO, YES);
      this.ret = ret;
      this.name = name;
      this.params = params;
      this.attrs = attrs;
      this.requires = requires;
      this.cvQuals = cvQuals;
      this.refQual = refQual;
    }

    @Override
    boolean hasRHSComponentSlow(OutputBuffer ob) {
      return true;
    }

    @Override
    boolean hasFunctionSlow(OutputBuffer ob) {
      return true;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      if (ret != null) {
        ob.printLeft(ret);
        if (!ret.hasRHSComponent(ob)) ob.append(" ");
      }
      name.print(ob);
    }

    @Override
    void printRight(OutputBuffer ob) {
      ob.printOpen();
      printWithComma(params, ob);
      ob.printClose();
      if (ret != null) ob.printRight(ret);
      printQuals(ob, cvQuals);
      printRefQual(ob, refQual);
      if (attrs != null) attrs.print(ob);
      if (requires != null) {
        ob.append(" requires ");
        requires.print(ob);
      }
    }
  }

  static final class LiteralOperator extends Node {
    final Node opName;

    LiteralOperator(Node opName) {
      this.opName = opName;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("operator\"\" ");
      opName.print(ob);
    }
  }

  static final class SpecialName extends Node {
    final String special;
    final Node child;

    SpecialName(String special, Node child) {
      this.special = special;
      this.child = child;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append(special);
      child.print(ob);
    }
  }

  static final class CtorVtableSpecialName extends Node {
    final Node firstType;
    final Node secondType;

    CtorVtableSpecialName(Node firstType, Node secondType) {
      this.firstType = firstType;
      this.secondType = secondType;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("construction vtable for ");
      firstType.print(ob);
      ob.append("-in-");
      secondType.print(ob);
    }
  }

  static final class NestedName extends Node {
    final Node qual;
    final Node name;

    NestedName(Node qual, Node name) {
      this.qual = qual;
      this.name = name;
    }

    @Override
    Sv getBaseName() {
      return name.getBaseName();
    }

    @Override
    void printLeft(OutputBuffer ob) {
      qual.print(ob);
      ob.append("::");
      name.print(ob);
    }
  }

  static final class MemberLikeFriendName extends Node {
    final Node qual;
    final Node name;

    MemberLikeFriendName(Node qual, Node name) {
      this.qual = qual;
      this.name = name;
    }

    @Override
    Sv getBaseName() {
      return name.getBaseName();
    }

    @Override
    void printLeft(OutputBuffer ob) {
      qual.print(ob);
      ob.append("::friend ");
      name.print(ob);
    }
  }

  static final class ModuleName extends Node {
    final ModuleName parent;
    final Node name;
    final boolean isPartition;

    ModuleName(ModuleName parent, Node name, boolean isPartition) {
      this.parent = parent;
      this.name = name;
      this.isPartition = isPartition;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      if (parent != null) parent.print(ob);
      if (parent != null || isPartition) ob.append(isPartition ? ':' : '.');
      name.print(ob);
    }
  }

  static final class ModuleEntity extends Node {
    final ModuleName module;
    final Node name;

    ModuleEntity(ModuleName module, Node name) {
      this.module = module;
      this.name = name;
    }

    @Override
    Sv getBaseName() {
      return name.getBaseName();
    }

    @Override
    void printLeft(OutputBuffer ob) {
      name.print(ob);
      ob.append('@');
      module.print(ob);
    }
  }

  static final class LocalName extends Node {
    final Node encoding;
    final Node entity;

    LocalName(Node encoding, Node entity) {
      this.encoding = encoding;
      this.entity = entity;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      encoding.print(ob);
      ob.append("::");
      entity.print(ob);
    }
  }

  static final class QualifiedName extends Node {
    final Node qualifier;
    final Node name;

    QualifiedName(Node qualifier, Node name) {
      this.qualifier = qualifier;
      this.name = name;
    }

    @Override
    Sv getBaseName() {
      return name.getBaseName();
    }

    @Override
    void printLeft(OutputBuffer ob) {
      qualifier.print(ob);
      ob.append("::");
      name.print(ob);
    }
  }

  static final class VectorType extends Node {
    final Node baseType;
    final Node dimension;

    VectorType(Node baseType, Node dimension) {
      this.baseType = baseType;
      this.dimension = dimension;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      baseType.print(ob);
      ob.append(" vector[");
      if (dimension != null) dimension.print(ob);
      ob.append("]");
    }
  }

  static final class PixelVectorType extends Node {
    final Node dimension;

    PixelVectorType(Node dimension) {
      this.dimension = dimension;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("pixel vector[");
      dimension.print(ob);
      ob.append("]");
    }
  }

  static final class BinaryFPType extends Node {
    final Node dimension;

    BinaryFPType(Node dimension) {
      this.dimension = dimension;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("_Float");
      dimension.print(ob);
    }
  }

  static final int PARAM_TYPE = 0;
  static final int PARAM_NON_TYPE = 1;
  static final int PARAM_TEMPLATE = 2;

  /** An invented name ($T, $N, $TT) for a lambda's template parameter that has no argument. */
  static final class SyntheticTemplateParamName extends Node {
    final int kind;
    final long index;

    SyntheticTemplateParamName(int kind, long index) {
      this.kind = kind;
      this.index = index;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append(kind == PARAM_TYPE ? "$T" : kind == PARAM_NON_TYPE ? "$N" : "$TT");
      if (index > 0) ob.appendUnsigned(index - 1);
    }
  }

  static final class TemplateParamQualifiedArg extends Node {
    final Node param;
    final Node arg;

    TemplateParamQualifiedArg(Node param, Node arg) {
      this.param = param;
      this.arg = arg;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      arg.print(ob); // the parameter is not printed, to keep the output consistent
    }
  }

  static final class TypeTemplateParamDecl extends Node {
    final Node name;

    TypeTemplateParamDecl(Node name) {
      super(PRIMARY, YES, NO, NO);
      this.name = name;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("typename ");
    }

    @Override
    void printRight(OutputBuffer ob) {
      name.print(ob);
    }
  }

  static final class ConstrainedTypeTemplateParamDecl extends Node {
    final Node constraint;
    final Node name;

    ConstrainedTypeTemplateParamDecl(Node constraint, Node name) {
      super(PRIMARY, YES, NO, NO);
      this.constraint = constraint;
      this.name = name;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      constraint.print(ob);
      ob.append(" ");
    }

    @Override
    void printRight(OutputBuffer ob) {
      name.print(ob);
    }
  }

  static final class NonTypeTemplateParamDecl extends Node {
    final Node name;
    final Node type;

    NonTypeTemplateParamDecl(Node name, Node type) {
      super(PRIMARY, YES, NO, NO);
      this.name = name;
      this.type = type;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.printLeft(type);
      if (!type.hasRHSComponent(ob)) ob.append(" ");
    }

    @Override
    void printRight(OutputBuffer ob) {
      name.print(ob);
      ob.printRight(type);
    }
  }

  static final class TemplateTemplateParamDecl extends Node {
    final Node name;
    final Node[] params;
    final Node requires;

    TemplateTemplateParamDecl(Node name, Node[] params, Node requires) {
      super(PRIMARY, YES, NO, NO);
      this.name = name;
      this.params = params;
      this.requires = requires;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      boolean saved = ob.insideTemplate;
      ob.insideTemplate = true;
      ob.append("template<");
      printWithComma(params, ob);
      ob.append("> typename ");
      ob.insideTemplate = saved;
    }

    @Override
    void printRight(OutputBuffer ob) {
      name.print(ob);
      if (requires != null) {
        ob.append(" requires ");
        requires.print(ob);
      }
    }
  }

  static final class TemplateParamPackDecl extends Node {
    final Node param;

    TemplateParamPackDecl(Node param) {
      super(PRIMARY, YES, NO, NO);
      this.param = param;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.printLeft(param);
      ob.append("...");
    }

    @Override
    void printRight(OutputBuffer ob) {
      ob.printRight(param);
    }
  }

  /**
   * An unexpanded parameter pack: the arguments of a {@code J...E} that apply to an encoding, as
   * stored in the template parameter table. It prints the element the enclosing
   * {@link ParameterPackExpansion} is at.
   */
  static final class ParameterPack extends Node {
    final Node[] data;

    ParameterPack(Node[] data) {
      super(PRIMARY, UNKNOWN, UNKNOWN, UNKNOWN);
      this.data = data;
      boolean allNoArray = true;
      boolean allNoFunction = true;
      boolean allNoRhs = true;
      for (Node p : data) {
        allNoArray &= p.arrayCache == NO;
        allNoFunction &= p.functionCache == NO;
        allNoRhs &= p.rhsCache == NO;
      }
      if (allNoArray) arrayCache = NO;
      if (allNoFunction) functionCache = NO;
      if (allNoRhs) rhsCache = NO;
    }

    private void initializePackExpansion(OutputBuffer ob) {
      if (ob.currentPackMax == OutputBuffer.NO_PACK) {
        ob.currentPackMax = data.length;
        ob.currentPackIndex = 0;
      }
    }

    @Override
    boolean hasRHSComponentSlow(OutputBuffer ob) {
      initializePackExpansion(ob);
      int idx = ob.currentPackIndex;
      return idx < data.length && data[idx].hasRHSComponent(ob);
    }

    @Override
    boolean hasArraySlow(OutputBuffer ob) {
      initializePackExpansion(ob);
      int idx = ob.currentPackIndex;
      return idx < data.length && data[idx].hasArray(ob);
    }

    @Override
    boolean hasFunctionSlow(OutputBuffer ob) {
      initializePackExpansion(ob);
      int idx = ob.currentPackIndex;
      return idx < data.length && data[idx].hasFunction(ob);
    }

    @Override
    Node getSyntaxNode(OutputBuffer ob) {
      initializePackExpansion(ob);
      int idx = ob.currentPackIndex;
      if (idx >= data.length) return this;
      ob.enter();
      Node r = data[idx].getSyntaxNode(ob);
      ob.exit();
      return r;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      initializePackExpansion(ob);
      int idx = ob.currentPackIndex;
      if (idx < data.length) ob.printLeft(data[idx]);
    }

    @Override
    void printRight(OutputBuffer ob) {
      initializePackExpansion(ob);
      int idx = ob.currentPackIndex;
      if (idx < data.length) ob.printRight(data[idx]);
    }
  }

  /** A variadic template argument ({@code J...E} in template arguments). */
  static final class TemplateArgumentPack extends Node {
    final Node[] elements;

    TemplateArgumentPack(Node[] elements) {
      this.elements = elements;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      printWithComma(elements, ob);
    }
  }

  /** A pack expansion: prints its child once per element of the pack below it. */
  static final class ParameterPackExpansion extends Node {
    final Node child;

    ParameterPackExpansion(Node child) {
      this.child = child;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      int savedIndex = ob.currentPackIndex;
      int savedMax = ob.currentPackMax;
      ob.currentPackIndex = OutputBuffer.NO_PACK;
      ob.currentPackMax = OutputBuffer.NO_PACK;
      int streamPos = ob.position();

      // Print the first element; a ParameterPack below sets currentPackMax.
      child.print(ob);

      if (ob.currentPackMax == OutputBuffer.NO_PACK) {
        // No ParameterPack below (a pack expansion on a <function-param>).
        ob.append("...");
      } else if (ob.currentPackMax == 0) {
        // An empty pack: erase whatever was printed.
        ob.setPosition(streamPos);
      } else {
        for (int i = 1, e = ob.currentPackMax; i < e; ++i) {
          ob.append(", ");
          ob.currentPackIndex = i;
          child.print(ob);
        }
      }
      ob.currentPackIndex = savedIndex;
      ob.currentPackMax = savedMax;
    }
  }

  static final class TemplateArgs extends Node {
    final Node[] params;
    final Node requires;

    TemplateArgs(Node[] params, Node requires) {
      this.params = params;
      this.requires = requires;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      boolean saved = ob.insideTemplate;
      ob.insideTemplate = true;
      ob.append("<");
      printWithComma(params, ob);
      ob.append(">");
      ob.insideTemplate = saved;
      // The requires clause is not printed, to keep the output simple.
    }
  }

  /**
   * A template parameter used before its arguments are parsed (the type of a conversion operator
   * template), resolved at the end of the enclosing encoding. A substitution can make it refer to
   * itself; then it prints nothing, as in llvm.
   */
  static final class ForwardTemplateReference extends Node {
    final long index;
    Node ref;
    private boolean printing;

    ForwardTemplateReference(long index) {
      super(PRIMARY, UNKNOWN, UNKNOWN, UNKNOWN);
      this.index = index;
    }

    private Node ref() {
      if (ref == null) throw OutputBuffer.ABORT; // unresolved: llvm would dereference null
      return ref;
    }

    @Override
    boolean hasRHSComponentSlow(OutputBuffer ob) {
      if (printing) return false;
      printing = true;
      boolean r = ref().hasRHSComponent(ob);
      printing = false;
      return r;
    }

    @Override
    boolean hasArraySlow(OutputBuffer ob) {
      if (printing) return false;
      printing = true;
      boolean r = ref().hasArray(ob);
      printing = false;
      return r;
    }

    @Override
    boolean hasFunctionSlow(OutputBuffer ob) {
      if (printing) return false;
      printing = true;
      boolean r = ref().hasFunction(ob);
      printing = false;
      return r;
    }

    @Override
    Node getSyntaxNode(OutputBuffer ob) {
      if (printing) return this;
      printing = true;
      ob.enter();
      Node r = ref().getSyntaxNode(ob);
      ob.exit();
      printing = false;
      return r;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      if (printing) return;
      printing = true;
      ob.printLeft(ref());
      printing = false;
    }

    @Override
    void printRight(OutputBuffer ob) {
      if (printing) return;
      printing = true;
      ob.printRight(ref());
      printing = false;
    }
  }

  static final class NameWithTemplateArgs extends Node {
    final Node name;
    final Node templateArgs;

    NameWithTemplateArgs(Node name, Node templateArgs) {
      this.name = name;
      this.templateArgs = templateArgs;
    }

    @Override
    Sv getBaseName() {
      return name.getBaseName();
    }

    @Override
    void printLeft(OutputBuffer ob) {
      name.print(ob);
      templateArgs.print(ob);
    }
  }

  static final class GlobalQualifiedName extends Node {
    final Node child;

    GlobalQualifiedName(Node child) {
      this.child = child;
    }

    @Override
    Sv getBaseName() {
      return child.getBaseName();
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("::");
      child.print(ob);
    }
  }

  // SpecialSubKind
  static final int SS_ALLOCATOR = 0;
  static final int SS_BASIC_STRING = 1;
  static final int SS_STRING = 2;
  static final int SS_ISTREAM = 3;
  static final int SS_OSTREAM = 4;
  static final int SS_IOSTREAM = 5;

  private static final Sv[] EXPANDED_BASE_NAMES = {
    Sv.of("allocator"), Sv.of("basic_string"), Sv.of("basic_string"),
    Sv.of("basic_istream"), Sv.of("basic_ostream"), Sv.of("basic_iostream"),
  };
  private static final Sv[] SHORT_BASE_NAMES = {
    Sv.of("allocator"), Sv.of("basic_string"), Sv.of("string"),
    Sv.of("istream"), Sv.of("ostream"), Sv.of("iostream"),
  };

  /** {@code Sa}, {@code Ss}, ... written out ({@code std::basic_string<char, ...>}). */
  static sealed class ExpandedSpecialSubstitution extends Node permits SpecialSubstitution {
    final int ssk;

    ExpandedSpecialSubstitution(int ssk) {
      this.ssk = ssk;
    }

    final boolean isInstantiation() {
      return ssk >= SS_STRING;
    }

    @Override
    Sv getBaseName() {
      return EXPANDED_BASE_NAMES[ssk];
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("std::").append(getBaseName());
      if (isInstantiation()) {
        ob.append("<char, std::char_traits<char>");
        if (ssk == SS_STRING) ob.append(", std::allocator<char>");
        ob.append(">");
      }
    }
  }

  /** {@code Sa}, {@code Ss}, ... as their typedef names ({@code std::string}). */
  static final class SpecialSubstitution extends ExpandedSpecialSubstitution {
    SpecialSubstitution(int ssk) {
      super(ssk);
    }

    @Override
    Sv getBaseName() {
      return SHORT_BASE_NAMES[ssk];
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("std::").append(getBaseName());
    }
  }

  static final class CtorDtorName extends Node {
    final Node basename;
    final boolean isDtor;
    final int variant;

    CtorDtorName(Node basename, boolean isDtor, int variant) {
      this.basename = basename;
      this.isDtor = isDtor;
      this.variant = variant;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      if (isDtor) ob.append("~");
      ob.append(basename.getBaseName());
    }
  }

  static final class DtorName extends Node {
    final Node base;

    DtorName(Node base) {
      this.base = base;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("~");
      ob.printLeft(base);
    }
  }

  static final class UnnamedTypeName extends Node {
    final Sv count;

    UnnamedTypeName(Sv count) {
      this.count = count;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("'unnamed").append(count).append("'");
    }
  }

  static final class ClosureTypeName extends Node {
    final Node[] templateParams;
    final Node requires1;
    final Node[] params;
    final Node requires2;
    final Sv count;

    ClosureTypeName(Node[] templateParams, Node requires1, Node[] params, Node requires2, Sv count) {
      this.templateParams = templateParams;
      this.requires1 = requires1;
      this.params = params;
      this.requires2 = requires2;
      this.count = count;
    }

    void printDeclarator(OutputBuffer ob) {
      if (templateParams.length != 0) {
        boolean saved = ob.insideTemplate;
        ob.insideTemplate = true;
        ob.append("<");
        printWithComma(templateParams, ob);
        ob.append(">");
        ob.insideTemplate = saved;
      }
      if (requires1 != null) {
        ob.append(" requires ");
        requires1.print(ob);
        ob.append(" ");
      }
      ob.printOpen();
      printWithComma(params, ob);
      ob.printClose();
      if (requires2 != null) {
        ob.append(" requires ");
        requires2.print(ob);
      }
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("'lambda").append(count).append("'");
      printDeclarator(ob);
    }
  }

  static final class StructuredBindingName extends Node {
    final Node[] bindings;

    StructuredBindingName(Node[] bindings) {
      this.bindings = bindings;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.printOpen('[');
      printWithComma(bindings, ob);
      ob.printClose(']');
    }
  }

  // ---- expression nodes ----

  static final class BinaryExpr extends Node {
    final Node lhs;
    final Sv infixOperator;
    final Node rhs;

    BinaryExpr(Node lhs, Sv infixOperator, Node rhs, int prec) {
      super(prec);
      this.lhs = lhs;
      this.infixOperator = infixOperator;
      this.rhs = rhs;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      // A '>' not already in parentheses inside template arguments is parenthesized.
      boolean parenAll = !ob.isInParensInTemplateArgs()
          && (infixOperator.contentEquals(">") || infixOperator.contentEquals(">>"));
      if (parenAll) ob.printOpen();
      // Assignment is right associative, with special LHS precedence.
      boolean isAssign = prec == ASSIGN;
      lhs.printAsOperand(ob, isAssign ? ORIF : prec, !isAssign);
      // No space before the comma operator.
      if (!infixOperator.contentEquals(",")) ob.append(" ");
      ob.append(infixOperator).append(" ");
      rhs.printAsOperand(ob, prec, isAssign);
      if (parenAll) ob.printClose();
    }
  }

  static final class ArraySubscriptExpr extends Node {
    final Node op1;
    final Node op2;

    ArraySubscriptExpr(Node op1, Node op2, int prec) {
      super(prec);
      this.op1 = op1;
      this.op2 = op2;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      op1.printAsOperand(ob, prec, false);
      ob.printOpen('[');
      op2.printAsOperand(ob);
      ob.printClose(']');
    }
  }

  static final class PostfixExpr extends Node {
    final Node child;
    final Sv operator;

    PostfixExpr(Node child, Sv operator, int prec) {
      super(prec);
      this.child = child;
      this.operator = operator;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      child.printAsOperand(ob, prec, true);
      ob.append(operator);
    }
  }

  static final class ConditionalExpr extends Node {
    final Node cond;
    final Node then;
    final Node otherwise;

    ConditionalExpr(Node cond, Node then, Node otherwise, int prec) {
      super(prec);
      this.cond = cond;
      this.then = then;
      this.otherwise = otherwise;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      cond.printAsOperand(ob, prec, false);
      ob.append(" ? ");
      then.printAsOperand(ob);
      ob.append(" : ");
      otherwise.printAsOperand(ob, ASSIGN, true);
    }
  }

  static final class MemberExpr extends Node {
    final Node lhs;
    final Sv kind;
    final Node rhs;

    MemberExpr(Node lhs, Sv kind, Node rhs, int prec) {
      super(prec);
      this.lhs = lhs;
      this.kind = kind;
      this.rhs = rhs;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      lhs.printAsOperand(ob, prec, true);
      ob.append(kind);
      rhs.printAsOperand(ob, prec, false);
    }
  }

  static final class SubobjectExpr extends Node {
    final Node type;
    final Node subExpr;
    final Sv offset;
    final Node[] unionSelectors;
    final boolean onePastTheEnd;

    SubobjectExpr(Node type, Node subExpr, Sv offset, Node[] unionSelectors, boolean onePastTheEnd) {
      this.type = type;
      this.subExpr = subExpr;
      this.offset = offset;
      this.unionSelectors = unionSelectors;
      this.onePastTheEnd = onePastTheEnd;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      subExpr.print(ob);
      ob.append(".<");
      type.print(ob);
      ob.append(" at offset ");
      if (offset.isEmpty()) {
        ob.append("0");
      } else if (offset.at(0) == 'n') {
        ob.append("-").append(offset.from(1));
      } else {
        ob.append(offset);
      }
      ob.append(">");
    }
  }

  static final class EnclosingExpr extends Node {
    final String prefix;
    final Node infix;

    EnclosingExpr(String prefix, Node infix, int prec) {
      super(prec);
      this.prefix = prefix;
      this.infix = infix;
    }

    EnclosingExpr(String prefix, Node infix) {
      this(prefix, infix, PRIMARY);
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append(prefix);
      ob.printOpen();
      infix.print(ob);
      ob.printClose();
    }
  }

  static final class CastExpr extends Node {
    final Sv castKind;
    final Node to;
    final Node from;

    CastExpr(Sv castKind, Node to, Node from, int prec) {
      super(prec);
      this.castKind = castKind;
      this.to = to;
      this.from = from;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append(castKind);
      boolean saved = ob.insideTemplate;
      ob.insideTemplate = true;
      ob.append("<");
      ob.printLeft(to);
      ob.append(">");
      ob.insideTemplate = saved;
      ob.printOpen();
      from.printAsOperand(ob);
      ob.printClose();
    }
  }

  static final class SizeofParamPackExpr extends Node {
    final Node pack;

    SizeofParamPackExpr(Node pack) {
      this.pack = pack;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("sizeof...");
      ob.printOpen();
      new ParameterPackExpansion(pack).printLeft(ob);
      ob.printClose();
    }
  }

  static final class CallExpr extends Node {
    final Node callee;
    final Node[] args;
    final boolean isParen;

    CallExpr(Node callee, Node[] args, boolean isParen, int prec) {
      super(prec);
      this.callee = callee;
      this.args = args;
      this.isParen = isParen;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      if (isParen) ob.printOpen();
      callee.print(ob);
      if (isParen) ob.printClose();
      ob.printOpen();
      printWithComma(args, ob);
      ob.printClose();
    }
  }

  static final class NewExpr extends Node {
    final Node[] exprList;
    final Node type;
    final Node[] initList;
    final boolean isGlobal;
    final boolean isArray;

    NewExpr(Node[] exprList, Node type, Node[] initList, boolean isGlobal, boolean isArray, int prec) {
      super(prec);
      this.exprList = exprList;
      this.type = type;
      this.initList = initList;
      this.isGlobal = isGlobal;
      this.isArray = isArray;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      if (isGlobal) ob.append("::");
      ob.append("new");
      if (isArray) ob.append("[]");
      if (exprList.length != 0) {
        ob.printOpen();
        printWithComma(exprList, ob);
        ob.printClose();
      }
      ob.append(" ");
      type.print(ob);
      if (initList.length != 0) {
        ob.printOpen();
        printWithComma(initList, ob);
        ob.printClose();
      }
    }
  }

  static final class DeleteExpr extends Node {
    final Node op;
    final boolean isGlobal;
    final boolean isArray;

    DeleteExpr(Node op, boolean isGlobal, boolean isArray, int prec) {
      super(prec);
      this.op = op;
      this.isGlobal = isGlobal;
      this.isArray = isArray;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      if (isGlobal) ob.append("::");
      ob.append("delete");
      if (isArray) ob.append("[]");
      ob.append(' ');
      op.print(ob);
    }
  }

  static final class PrefixExpr extends Node {
    final Sv prefix;
    final Node child;

    PrefixExpr(Sv prefix, Node child, int prec) {
      super(prec);
      this.prefix = prefix;
      this.child = child;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append(prefix);
      child.printAsOperand(ob, prec, false);
    }
  }

  static final class FunctionParam extends Node {
    final Sv number;

    FunctionParam(Sv number) {
      this.number = number;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("fp").append(number);
    }
  }

  static final class ConversionExpr extends Node {
    final Node type;
    final Node[] expressions;

    ConversionExpr(Node type, Node[] expressions, int prec) {
      super(prec);
      this.type = type;
      this.expressions = expressions;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.printOpen();
      type.print(ob);
      ob.printClose();
      ob.printOpen();
      printWithComma(expressions, ob);
      ob.printClose();
    }
  }

  static final class PointerToMemberConversionExpr extends Node {
    final Node type;
    final Node subExpr;
    final Sv offset;

    PointerToMemberConversionExpr(Node type, Node subExpr, Sv offset, int prec) {
      super(prec);
      this.type = type;
      this.subExpr = subExpr;
      this.offset = offset;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.printOpen();
      type.print(ob);
      ob.printClose();
      ob.printOpen();
      subExpr.print(ob);
      ob.printClose();
    }
  }

  static final class InitListExpr extends Node {
    final Node ty;
    final Node[] inits;

    InitListExpr(Node ty, Node[] inits) {
      this.ty = ty;
      this.inits = inits;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      if (ty != null) {
        if (ty.printInitListAsType(ob, inits)) return;
        ty.print(ob);
      }
      ob.append('{');
      printWithComma(inits, ob);
      ob.append('}');
    }
  }

  static final class BracedExpr extends Node {
    final Node elem;
    final Node init;
    final boolean isArray;

    BracedExpr(Node elem, Node init, boolean isArray) {
      this.elem = elem;
      this.init = init;
      this.isArray = isArray;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      if (isArray) {
        ob.append('[');
        elem.print(ob);
        ob.append(']');
      } else {
        ob.append('.');
        elem.print(ob);
      }
      if (!(init instanceof BracedExpr) && !(init instanceof BracedRangeExpr)) ob.append(" = ");
      init.print(ob);
    }
  }

  static final class BracedRangeExpr extends Node {
    final Node first;
    final Node last;
    final Node init;

    BracedRangeExpr(Node first, Node last, Node init) {
      this.first = first;
      this.last = last;
      this.init = init;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append('[');
      first.print(ob);
      ob.append(" ... ");
      last.print(ob);
      ob.append(']');
      if (!(init instanceof BracedExpr) && !(init instanceof BracedRangeExpr)) ob.append(" = ");
      init.print(ob);
    }
  }

  static final class FoldExpr extends Node {
    final Node pack;
    final Node init;
    final Sv operatorName;
    final boolean isLeftFold;

    FoldExpr(boolean isLeftFold, Sv operatorName, Node pack, Node init) {
      this.pack = pack;
      this.init = init;
      this.operatorName = operatorName;
      this.isLeftFold = isLeftFold;
    }

    private void printPack(OutputBuffer ob) {
      ob.printOpen();
      new ParameterPackExpansion(pack).print(ob);
      ob.printClose();
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.printOpen();
      // Either '[init op ]... op pack' or 'pack op ...[ op init]', as
      // '[(init|pack) op ]...[ op (pack|init)]'; the operands are cast-expressions.
      if (!isLeftFold || init != null) {
        if (isLeftFold) init.printAsOperand(ob, CAST, true);
        else printPack(ob);
        ob.append(" ").append(operatorName).append(" ");
      }
      ob.append("...");
      if (isLeftFold || init != null) {
        ob.append(" ").append(operatorName).append(" ");
        if (isLeftFold) printPack(ob);
        else init.printAsOperand(ob, CAST, true);
      }
      ob.printClose();
    }
  }

  static final class ThrowExpr extends Node {
    final Node op;

    ThrowExpr(Node op) {
      this.op = op;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("throw ");
      op.print(ob);
    }
  }

  static final class BoolExpr extends Node {
    final boolean value;

    BoolExpr(boolean value) {
      this.value = value;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append(value ? "true" : "false");
    }
  }

  static final class StringLiteral extends Node {
    final Node type;

    StringLiteral(Node type) {
      this.type = type;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("\"<");
      type.print(ob);
      ob.append(">\"");
    }
  }

  static final class LambdaExpr extends Node {
    final Node type;

    LambdaExpr(Node type) {
      this.type = type;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("[]");
      if (type instanceof ClosureTypeName c) c.printDeclarator(ob);
      ob.append("{...}");
    }
  }

  static final class EnumLiteral extends Node {
    final Node ty;
    final Sv integer;

    EnumLiteral(Node ty, Sv integer) {
      this.ty = ty;
      this.integer = integer;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.printOpen();
      ty.print(ob);
      ob.printClose();
      if (integer.at(0) == 'n') ob.append('-').append(integer.from(1));
      else ob.append(integer);
    }
  }

  static final class IntegerLiteral extends Node {
    final String type;
    final Sv value;

    IntegerLiteral(String type, Sv value) {
      this.type = type;
      this.value = value;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      if (type.length() > 3) {
        ob.printOpen();
        ob.append(type);
        ob.printClose();
      }
      if (value.at(0) == 'n') ob.append('-').append(value.from(1));
      else ob.append(value);
      if (type.length() <= 3) ob.append(type);
    }
  }

  static final class RequiresExpr extends Node {
    final Node[] parameters;
    final Node[] requirements;

    RequiresExpr(Node[] parameters, Node[] requirements) {
      this.parameters = parameters;
      this.requirements = requirements;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append("requires");
      if (parameters.length != 0) {
        ob.append(' ');
        ob.printOpen();
        printWithComma(parameters, ob);
        ob.printClose();
      }
      ob.append(' ');
      ob.printOpen('{');
      for (Node req : requirements) req.print(ob);
      ob.append(' ');
      ob.printClose('}');
    }
  }

  static final class ExprRequirement extends Node {
    final Node expr;
    final boolean isNoexcept;
    final Node typeConstraint;

    ExprRequirement(Node expr, boolean isNoexcept, Node typeConstraint) {
      this.expr = expr;
      this.isNoexcept = isNoexcept;
      this.typeConstraint = typeConstraint;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append(" ");
      if (isNoexcept || typeConstraint != null) ob.printOpen('{');
      expr.print(ob);
      if (isNoexcept || typeConstraint != null) ob.printClose('}');
      if (isNoexcept) ob.append(" noexcept");
      if (typeConstraint != null) {
        ob.append(" -> ");
        typeConstraint.print(ob);
      }
      ob.append(';');
    }
  }

  static final class TypeRequirement extends Node {
    final Node type;

    TypeRequirement(Node type) {
      this.type = type;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append(" typename ");
      type.print(ob);
      ob.append(';');
    }
  }

  static final class NestedRequirement extends Node {
    final Node constraint;

    NestedRequirement(Node constraint) {
      this.constraint = constraint;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      ob.append(" requires ");
      constraint.print(ob);
      ob.append(';');
    }
  }

  /**
   * A float, double or x87 long double literal, written as C's {@code printf("%a")} (glibc's text)
   * with llvm's suffixes: {@code 0x1.8p+0f}, {@code 0x1.8p+0}, {@code 0xcp-2L}.
   */
  static final class FloatLiteral extends Node {
    /** Hex digits of the value, most significant byte first (8, 16 or 20 of them). */
    final Sv contents;
    final int mangledSize;

    FloatLiteral(Sv contents, int mangledSize) {
      this.contents = contents;
      this.mangledSize = mangledSize;
    }

    @Override
    void printLeft(OutputBuffer ob) {
      if (contents.len() < mangledSize) return;
      switch (mangledSize) {
        case 8 -> ob.append(HexFloat.formatFloat((int) hexBits(0, 8))).append('f');
        case 16 -> ob.append(HexFloat.formatDouble(hexBits(0, 16)));
        default -> ob.append(HexFloat.formatX87((int) hexBits(0, 4), hexBits(4, 16))).append('L');
      }
    }

    private long hexBits(int from, int count) {
      long v = 0;
      for (int i = from; i < from + count; i++) {
        int c = contents.at(i);
        v = (v << 4) | (c <= '9' ? c - '0' : c - 'a' + 10);
      }
      return v;
    }
  }
}
