// The allowed layer order of src/, lowest first: a folder may import only folders
// listed before it (and itself). docs/architecture.md explains each layer. The
// package's entry points sit above every layer: the files at the top of src/
// (index.ts for the root, tools.ts, express.ts, json.ts, driver-api.ts), the index.ts
// of testing/ and nest/, and nest/terminus.ts; nothing in src/ imports them.
const LAYERS = [
  'errors', // typed errors, no imports
  'util', // byte, number and signal helpers, and checks of the arguments a call is given
  'stream', // the one stream shape: async batches with cancellation, merges, adapters
  'model', // data the stages pass to each other: declarations, mutations, requests, rows, the driver seam
  'codec', // value and key-component codecs, their contracts
  'metadata', // decorator storage and the compile step: declarations -> frozen EntitySchema
  'decorators', // the public decorators, recording raw arguments
  'key', // row keys against a compiled schema: encode, decode, salt, ranges
  'json-form', // an entity's JSON form: its JSON Schema, and conversions from and to it
  'lint', // key-design linter and bucket-count study: pure checks of a compiled schema
  'simulate', // hotspot simulator: workloads over a tablet/node model, per layout, with the real key encoder
  'heatmap', // Key-Visualizer-style heatmaps (SVG, HTML, PNG) and the workload-capturing driver decorator
  'driver', // the only code that talks to @google-cloud/bigtable
  'telemetry', // OpenTelemetry metrics and spans from the retry engine's attempt listener (optional @opentelemetry/api)
  'mutation', // plan writes: entity -> CompiledMutation
  'schema', // plan and apply table/family changes
  'operation', // deadlines, abort and options around one call
  'write', // bulk-write batching and sending, shared by repository and denormalize
  'read', // the read side of finds and scans: read options, the read filter, GC, packed rows, hydration
  'scan', // plan scans and execute them over salt buckets, with cursors
  'denormalize', // copies of source rows and their propagation
  'repository', // the public Repository and BigtableMapper
  'http', // HTTP answers for library errors, and the Express error handler
  'nest', // NestJS module
  'testing', // the in-memory driver and the emulator helpers for users' tests
  'cli', // the bigtable-mapper command line (ES modules only, never imported by the library)
];

const layerRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer}`,
  comment: `src/${layer}/ may import only ${LAYERS.slice(0, index).join(', ') || 'nothing from src'}`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${LAYERS.slice(index + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'driver-implementation-only-from-the-mapper',
      comment:
        'Plans and scans talk to the BigtableDriver interface in model/; only the mapper, the testing helpers and the bigtable-mapper/driver entry point (src/driver-api.ts) pick the implementation',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(driver|repository|testing|telemetry)/|^src/driver-api\\.ts$' },
      to: { path: '^src/driver/' },
    },
    {
      name: 'telemetry-hears-only-the-engine',
      comment:
        "telemetry/ implements the retry engine's AttemptListener and imports nothing else of driver/, and only its types",
      severity: 'error',
      from: { path: '^src/telemetry/' },
      to: { path: '^src/driver/', pathNot: '^src/driver/retry-engine\\.ts$' },
    },
    {
      name: 'telemetry-types-of-the-engine-only',
      comment: 'telemetry/ imports the retry engine for its listener types only, never its code',
      severity: 'error',
      from: { path: '^src/telemetry/' },
      to: { path: '^src/driver/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'tools-express-and-json-without-the-client',
      comment:
        'bigtable-mapper/tools (src/tools.ts), bigtable-mapper/express (src/express.ts) and bigtable-mapper/json (src/json.ts) load neither @google-cloud/bigtable nor gRPC: nothing they import, directly or not, may reach src/driver/ or the client',
      severity: 'error',
      from: { path: '^src/(tools|express|json)\\.ts$' },
      to: { path: '^src/driver/|@google-cloud/bigtable|@grpc/grpc-js|google-gax', reachable: true },
    },
    {
      name: 'nest-without-terminus',
      comment:
        'bigtable-mapper/nest (src/nest/index.ts) works without the optional @nestjs/terminus: only bigtable-mapper/nest/terminus (src/nest/terminus.ts) may reach it',
      severity: 'error',
      from: { path: '^src/nest/index\\.ts$' },
      to: { path: '@nestjs/terminus', reachable: true },
    },
    {
      name: 'no-client-internals',
      comment: 'Only the public API of @google-cloud/bigtable: its build/ folder may change in any release',
      severity: 'error',
      from: {},
      to: { path: '@google-cloud/bigtable/build/', pathNot: '@google-cloud/bigtable/build/src/index\\.js$' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'src-stays-in-src',
      comment: 'The library never imports tests, benchmarks, examples or scripts',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|examples|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
