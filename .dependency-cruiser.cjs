/**
 * The layering, checked by `npm run lint` (and so by CI): every folder may import only the layers
 * below it. Top to bottom: main (the composition root) > server | projections | workers (the roles) >
 * platform (ports, adapters, command handler, configuration, connections, mail transport) > shared
 * (domain rules, schemas, contracts; also the client's). The client stands on shared alone. See
 * docs/architecture.md#layers.
 */
const below = {
  // main/ (the composition root) may import everything; tests/ and scripts/ too.
  shared: ['shared'],
  platform: ['platform', 'shared'],
  projections: ['projections', 'platform', 'shared'],
  workers: ['workers', 'platform', 'shared'],
  // The API reads the read models through the projections' own accessors (one definition of each collection).
  server: ['server', 'projections', 'platform', 'shared'],
  client: ['client', 'shared'],
};

const layerRules = Object.entries(below).map(([layer, allowed]) => ({
  name: `${layer}-imports-only-${allowed.join('-')}`,
  comment: `${layer}/ may import only ${allowed.join(', ')}`,
  severity: 'error',
  from: { path: `^${layer}/` },
  to: { path: '^[a-z]', pathNot: [`^(${allowed.join('|')})/`, '^node_modules/', '^node:', '(^|/)(package\\.json)$'], dependencyTypesNot: ['core'] },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^(shared|platform|projections|workers|server|client|main)/' },
      to: { circular: true },
    },
    {
      name: 'client-features-stand-alone',
      comment: 'a client feature does not reach into another (the shell composes them)',
      severity: 'error',
      from: { path: '^client/features/([^/]+)/', pathNot: '^client/features/shell/' },
      to: { path: '^client/features/([^/]+)/', pathNot: '^client/features/$1/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
