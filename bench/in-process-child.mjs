// The catalog in process, timed in a process of its own (bench/in-process.ts): the built module
// imported as `catalog-kit/fetch` gives it on Node.js (package.json `exports`), createCatalog with
// the demo catalog twice, reset(), and GET by id through its fetch.
// Prints one JSON line.
const [, , dist, getRuns] = process.argv;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
let t = performance.now();
const { createCatalog } = await import(`${dist}/src/app/in-process/catalog-loader.js`);
const importMs = performance.now() - t;
t = performance.now();
const catalog = await createCatalog();
const firstCreateMs = performance.now() - t;
t = performance.now();
const second = await createCatalog();
const secondCreateMs = performance.now() - t;
second.close();
const headers = { authorization: `Bearer ${await catalog.token()}` };
const page = await (await catalog.fetch(`${catalog.baseUrl}/v1/tables?limit=1`, { headers })).json();
const url = `${catalog.baseUrl}/v1/tables/${page.data[0].id}`;
const resets = [];
for (let i = 0; i < 50; i++) {
  await (
    await catalog.fetch(`${catalog.baseUrl}/v1/services/storageServices`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `s${i}`, serviceType: 'S3', connection: { config: { type: 'S3' } } }),
    })
  ).text();
  t = performance.now();
  catalog.reset();
  resets.push(performance.now() - t);
}
const gets = [];
for (let i = 0; i < Number(getRuns); i++) {
  t = performance.now();
  const answer = await catalog.fetch(url, { headers });
  await answer.json();
  gets.push(performance.now() - t);
}
catalog.close();
// The first tenth warms the code up.
const warm = gets.slice(Math.floor(gets.length / 10));
process.stdout.write(
  `${JSON.stringify({ importMs, firstCreateMs, secondCreateMs, resetMedianMs: median(resets), getByIdMedianUs: median(warm) * 1000, getByIdP99Us: [...warm].sort((a, b) => a - b)[Math.floor(warm.length * 0.99)] * 1000 })}\n`,
);
