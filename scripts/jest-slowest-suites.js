/** A jest reporter that prints the ten slowest test files after the run, so CI shows where the suite's time goes. */
class SlowestSuites {
  onRunComplete(_contexts, results) {
    const files = results.testResults
      .map((file) => ({ path: file.testFilePath, ms: file.perfStats.end - file.perfStats.start }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    if (files.length === 0) return;
    const root = process.cwd() + '/';
    process.stdout.write('\nSlowest test files:\n');
    for (const file of files) {
      process.stdout.write(`  ${(file.ms / 1000).toFixed(1).padStart(7)} s  ${file.path.replace(root, '')}\n`);
    }
  }
}

module.exports = SlowestSuites;
