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
  // The API reads the read models through each projection folder's index.ts (see the read-model rules below).
  server: ['server', 'projections', 'platform', 'shared'],
  client: ['client', 'shared'],
};

const layerRules = Object.entries(below).map(([layer, allowed]) => ({
  name: `${layer}-imports-only-${allowed.join('-')}`,
  comment: `${layer}/ may import only ${allowed.join(', ')}`,
  severity: 'error',
  from: { path: `^${layer}/` },
  to: {
    path: '^[a-z]',
    pathNot: [`^(${allowed.join('|')})/`, '^node_modules/', '^node:', '(^|/)(package\\.json)$'],
    dependencyTypesNot: ['core'],
  },
}));

/**
 * How the folders inside a layer may reach each other, a rule a name: an import from `from` to `to` is an error.
 * In `to`, `$1` is the folder `from` matched (the importer's own).
 */
const reachRules = {
  'client-features-stand-alone': {
    comment: 'a client feature does not reach into another (the shell composes them)',
    from: { path: '^client/features/([^/]+)/', pathNot: '^client/features/shell/' },
    to: { path: '^client/features/([^/]+)/', pathNot: '^client/features/$1/' },
  },
  'projections-stand-alone': {
    comment:
      'a projection folder keeps what it needs from the events and imports no other projection folder (docs/architecture.md#read-model-ownership)',
    from: { path: '^projections/([^/]+)/' },
    to: { path: '^projections/', pathNot: '^projections/$1/' },
  },
  'projections-listed-through-their-index': {
    comment: 'projections/index.ts, the list of every projection, reaches each folder through its index.ts',
    from: { path: '^projections/[^/]+\\.ts$' },
    to: { path: '^projections/[^/]+/', pathNot: '^projections/[^/]+/index\\.ts$' },
  },
  'read-models-through-their-index': {
    comment:
      "outside projections/, a read model is reached only through its folder's index.ts (or projections/index.ts): its queries, visibility rules and answer shapes",
    from: { path: '^(server|workers|main|scripts)/' },
    to: { path: '^projections/', pathNot: ['^projections/index\\.ts$', '^projections/[^/]+/index\\.ts$'] },
  },
};

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^(shared|platform|projections|workers|server|client|main)/' },
      to: { circular: true },
    },
    ...Object.entries(reachRules).map(([name, rule]) => ({ name, severity: 'error', ...rule })),
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      // The client's generated types are written by the contract check that runs beside this one (npm run lint:contract).
      to: { couldNotResolve: true, pathNot: '/api-schema$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
