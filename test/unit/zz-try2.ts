import * as f from './report-fixtures.ts';
const r = f.infraErrorReport();
console.log(JSON.stringify(r.infraErrors), r.configurations.map(c=>[c.id,c.outcome, !!c.error]));
