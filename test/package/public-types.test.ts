import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import ts from 'typescript'

// Every type a public function of an entry point takes or returns is exported from that entry point, and so is
// every type those reach (a handle's members, an option's fields), so a test author can name what they hold:
// `let options: StartOptions`. Read from the sources by TypeScript's checker, as the published declarations are.
const SRC = fileURLToPath(new URL('../../src/', import.meta.url))
const ENTRIES = ['index.ts', 'msw/index.ts', 'types.ts']

/** Exports whose types are not followed, each with its reason. */
const NOT_FOLLOWED: Record<string, string> = {
  buildApp: 'wiring your own app: it takes the app\'s own parts (devices, rosters, clocks), not a test\'s options',
  AppDependencies: 'buildApp\'s argument, made of those parts'
}
/** Types that need no export, each with its reason. */
const NOT_EXPORTED: Record<string, string> = {
  GivenOptions: 'MockNvrOptions is Partial<GivenOptions> and more: the exported name of every option'
}

const program = ts.createProgram(ENTRIES.map(entry => join(SRC, entry)), {
  module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, strict: true, noEmit: true, skipLibCheck: true
})
const checker = program.getTypeChecker()
const resolved = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias) === 0 ? symbol : checker.getAliasedSymbol(symbol)

/** The types of src/ that an entry's public functions reach without being exported, each with the name that reaches it. */
function unexported (entry: string): Record<string, string> {
  const module = checker.getSymbolAtLocation(program.getSourceFile(join(SRC, entry)) as ts.SourceFile) as ts.Symbol
  const exported = new Set(checker.getExportsOfModule(module).map(resolved))
  const missing: Record<string, string> = {}
  const seen = new Set<ts.Node>()
  const visitTypes = (node: ts.Node, from: string): void => {
    if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) {
      const found = checker.getSymbolAtLocation(ts.isTypeReferenceNode(node) ? node.typeName : node.expression)
      const symbol = found === undefined ? undefined : resolved(found)
      for (const declaration of symbol?.declarations ?? []) {
        if (!declaration.getSourceFile().fileName.startsWith(SRC) || ts.isTypeParameterDeclaration(declaration)) continue
        const name = (symbol as ts.Symbol).name
        if (!exported.has(symbol as ts.Symbol) && NOT_EXPORTED[name] === undefined) missing[name] = from
        visitDeclaration(declaration, name)
      }
    }
    ts.forEachChild(node, child => { visitTypes(child, from) })
  }
  // A function's parameters and result; an interface's or a type's members. A class is exported with its own
  // types (an error class, a store), so only its name is checked.
  const visitDeclaration = (declaration: ts.Node, from: string): void => {
    if (seen.has(declaration)) return
    seen.add(declaration)
    if (ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration)) {
      ts.forEachChild(declaration, child => { if (!ts.isIdentifier(child)) visitTypes(child, from) })
    } else if (ts.isFunctionDeclaration(declaration)) {
      for (const parameter of declaration.parameters) if (parameter.type !== undefined) visitTypes(parameter.type, from)
      if (declaration.type === undefined) throw new Error(`${from} declares no return type`)
      visitTypes(declaration.type, from)
    }
  }
  for (const symbol of exported) {
    if (NOT_FOLLOWED[symbol.name] !== undefined) continue
    for (const declaration of symbol.declarations ?? []) visitDeclaration(declaration, symbol.name)
  }
  return missing
}

t.test('every type a public function takes or returns is exported by its entry point', async t => {
  for (const entry of ENTRIES) t.strictSame(unexported(entry), {}, `${entry}: each type named, with the export that reaches it`)
})

t.test('startMockNvr\'s argument, the handle\'s verbs and clock, and the proxy\'s options are among them', async t => {
  const module = checker.getSymbolAtLocation(program.getSourceFile(join(SRC, 'index.ts')) as ts.SourceFile) as ts.Symbol
  const names = checker.getExportsOfModule(module).map(symbol => symbol.name)
  for (const name of ['StartOptions', 'MockNvrOptions', 'MockNvr', 'DeviceVerbs', 'HandleClock', 'ProxyOptions', 'HealthSpec', 'HealthReport']) t.ok(names.includes(name), name)
  t.ok(Object.keys(NOT_FOLLOWED).every(name => names.includes(name)) && Object.keys(NOT_EXPORTED).every(name => !names.includes(name)), 'the lists name real exports, and types not exported')
})
