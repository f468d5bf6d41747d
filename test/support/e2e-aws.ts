// Setup of the `e2e-aws` jest project: the e2e tests start their servers as the emulated AWS runtime.
process.env.E2E_RUNTIME = 'aws';
