/* cu_clang.h - libclang, loaded when a C/C++/CUDA file is analysed.
 *
 * The front end calls libclang by its own names (clang_visitChildren...);
 * this header maps each of them to a pointer in one table that
 * cu_clang_load() fills once with dlopen/dlsym.  A run with no C/C++ file
 * (most Python runs) never maps libclang and LLVM: 15 ms of start-up and
 * 150 MB of address space less.  Every file of src/cuda includes this
 * instead of <clang-c/Index.h>; a libclang function used for the first time
 * is added to CU_CLANG_FUNCS, or the build fails on its name. */
#ifndef CU_CLANG_H
#define CU_CLANG_H
#include <stddef.h>
#include <clang-c/Index.h>

#define CU_CLANG_FUNCS(X) \
    X(CXXMethod_isPureVirtual) \
    X(Cursor_Evaluate) \
    X(Cursor_getArgument) \
    X(Cursor_getNumArguments) \
    X(Cursor_getStorageClass) \
    X(Cursor_isAnonymous) \
    X(Cursor_isNull) \
    X(EvalResult_dispose) \
    X(EvalResult_getAsLongLong) \
    X(EvalResult_getAsUnsigned) \
    X(EvalResult_getKind) \
    X(EvalResult_isUnsignedInt) \
    X(File_isEqual) \
    X(Location_isInSystemHeader) \
    X(createIndex) \
    X(defaultReparseOptions) \
    X(disposeDiagnostic) \
    X(disposeIndex) \
    X(disposeString) \
    X(disposeTokens) \
    X(disposeTranslationUnit) \
    X(equalCursors) \
    X(getCString) \
    X(getCanonicalCursor) \
    X(getCanonicalType) \
    X(getClangVersion) \
    X(getCursorBinaryOperatorKind) \
    X(getCursorDefinition) \
    X(getCursorExtent) \
    X(getCursorKind) \
    X(getCursorLocation) \
    X(getCursorReferenced) \
    X(getCursorSemanticParent) \
    X(getCursorSpelling) \
    X(getCursorType) \
    X(getCursorUSR) \
    X(getCursorUnaryOperatorKind) \
    X(getDiagnostic) \
    X(getDiagnosticCategoryText) \
    X(getDiagnosticLocation) \
    X(getDiagnosticSeverity) \
    X(getDiagnosticSpelling) \
    X(getEnumConstantDeclValue) \
    X(getFile) \
    X(getFileLocation) \
    X(getFileName) \
    X(getFileUniqueID) \
    X(getInclusions) \
    X(getNullCursor) \
    X(getNumDiagnostics) \
    X(getNumOverloadedDecls) \
    X(getOverloadedDecl) \
    X(getPointeeType) \
    X(getRangeEnd) \
    X(getRangeStart) \
    X(getSpecializedCursorTemplate) \
    X(getSpellingLocation) \
    X(getTokenSpelling) \
    X(getTranslationUnitCursor) \
    X(getTypeDeclaration) \
    X(getTypeSpelling) \
    X(isConstQualifiedType) \
    X(isCursorDefinition) \
    X(isDeclaration) \
    X(isExpression) \
    X(isInvalid) \
    X(isStatement) \
    X(parseTranslationUnit2) \
    X(reparseTranslationUnit) \
    X(saveTranslationUnit) \
    X(tokenize) \
    X(visitChildren)

typedef struct cu_clang_api {
#define CU_CLANG_FIELD(name) __typeof__(clang_##name) *name;
    CU_CLANG_FUNCS(CU_CLANG_FIELD)
#undef CU_CLANG_FIELD
} cu_clang_api;
extern cu_clang_api cu_clang;

/* Load libclang and resolve the table, once (thread-safe).  0, or -1 with
 * why in err ("cannot load libclang (PATH): ...").  CGLINT_LIBCLANG names
 * the library to load instead of the one cglint was built with. */
int cu_clang_load(char *err, size_t errlen);

#define clang_CXXMethod_isPureVirtual (cu_clang.CXXMethod_isPureVirtual)
#define clang_Cursor_Evaluate (cu_clang.Cursor_Evaluate)
#define clang_Cursor_getArgument (cu_clang.Cursor_getArgument)
#define clang_Cursor_getNumArguments (cu_clang.Cursor_getNumArguments)
#define clang_Cursor_getStorageClass (cu_clang.Cursor_getStorageClass)
#define clang_Cursor_isAnonymous (cu_clang.Cursor_isAnonymous)
#define clang_Cursor_isNull (cu_clang.Cursor_isNull)
#define clang_EvalResult_dispose (cu_clang.EvalResult_dispose)
#define clang_EvalResult_getAsLongLong (cu_clang.EvalResult_getAsLongLong)
#define clang_EvalResult_getAsUnsigned (cu_clang.EvalResult_getAsUnsigned)
#define clang_EvalResult_getKind (cu_clang.EvalResult_getKind)
#define clang_EvalResult_isUnsignedInt (cu_clang.EvalResult_isUnsignedInt)
#define clang_File_isEqual (cu_clang.File_isEqual)
#define clang_Location_isInSystemHeader (cu_clang.Location_isInSystemHeader)
#define clang_createIndex (cu_clang.createIndex)
#define clang_defaultReparseOptions (cu_clang.defaultReparseOptions)
#define clang_disposeDiagnostic (cu_clang.disposeDiagnostic)
#define clang_disposeIndex (cu_clang.disposeIndex)
#define clang_disposeString (cu_clang.disposeString)
#define clang_disposeTokens (cu_clang.disposeTokens)
#define clang_disposeTranslationUnit (cu_clang.disposeTranslationUnit)
#define clang_equalCursors (cu_clang.equalCursors)
#define clang_getCString (cu_clang.getCString)
#define clang_getCanonicalCursor (cu_clang.getCanonicalCursor)
#define clang_getCanonicalType (cu_clang.getCanonicalType)
#define clang_getClangVersion (cu_clang.getClangVersion)
#define clang_getCursorBinaryOperatorKind (cu_clang.getCursorBinaryOperatorKind)
#define clang_getCursorDefinition (cu_clang.getCursorDefinition)
#define clang_getCursorExtent (cu_clang.getCursorExtent)
#define clang_getCursorKind (cu_clang.getCursorKind)
#define clang_getCursorLocation (cu_clang.getCursorLocation)
#define clang_getCursorReferenced (cu_clang.getCursorReferenced)
#define clang_getCursorSemanticParent (cu_clang.getCursorSemanticParent)
#define clang_getCursorSpelling (cu_clang.getCursorSpelling)
#define clang_getCursorType (cu_clang.getCursorType)
#define clang_getCursorUSR (cu_clang.getCursorUSR)
#define clang_getCursorUnaryOperatorKind (cu_clang.getCursorUnaryOperatorKind)
#define clang_getDiagnostic (cu_clang.getDiagnostic)
#define clang_getDiagnosticCategoryText (cu_clang.getDiagnosticCategoryText)
#define clang_getDiagnosticLocation (cu_clang.getDiagnosticLocation)
#define clang_getDiagnosticSeverity (cu_clang.getDiagnosticSeverity)
#define clang_getDiagnosticSpelling (cu_clang.getDiagnosticSpelling)
#define clang_getEnumConstantDeclValue (cu_clang.getEnumConstantDeclValue)
#define clang_getFile (cu_clang.getFile)
#define clang_getFileLocation (cu_clang.getFileLocation)
#define clang_getFileName (cu_clang.getFileName)
#define clang_getFileUniqueID (cu_clang.getFileUniqueID)
#define clang_getInclusions (cu_clang.getInclusions)
#define clang_getNullCursor (cu_clang.getNullCursor)
#define clang_getNumDiagnostics (cu_clang.getNumDiagnostics)
#define clang_getNumOverloadedDecls (cu_clang.getNumOverloadedDecls)
#define clang_getOverloadedDecl (cu_clang.getOverloadedDecl)
#define clang_getPointeeType (cu_clang.getPointeeType)
#define clang_getRangeEnd (cu_clang.getRangeEnd)
#define clang_getRangeStart (cu_clang.getRangeStart)
#define clang_getSpecializedCursorTemplate (cu_clang.getSpecializedCursorTemplate)
#define clang_getSpellingLocation (cu_clang.getSpellingLocation)
#define clang_getTokenSpelling (cu_clang.getTokenSpelling)
#define clang_getTranslationUnitCursor (cu_clang.getTranslationUnitCursor)
#define clang_getTypeDeclaration (cu_clang.getTypeDeclaration)
#define clang_getTypeSpelling (cu_clang.getTypeSpelling)
#define clang_isConstQualifiedType (cu_clang.isConstQualifiedType)
#define clang_isCursorDefinition (cu_clang.isCursorDefinition)
#define clang_isDeclaration (cu_clang.isDeclaration)
#define clang_isExpression (cu_clang.isExpression)
#define clang_isInvalid (cu_clang.isInvalid)
#define clang_isStatement (cu_clang.isStatement)
#define clang_parseTranslationUnit2 (cu_clang.parseTranslationUnit2)
#define clang_reparseTranslationUnit (cu_clang.reparseTranslationUnit)
#define clang_saveTranslationUnit (cu_clang.saveTranslationUnit)
#define clang_tokenize (cu_clang.tokenize)
#define clang_visitChildren (cu_clang.visitChildren)
#endif
