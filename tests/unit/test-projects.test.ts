import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockingWebTests } from '../setup/projects';

const root = join(import.meta.dirname, '../..');

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.test\.tsx?$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

describe('the web test projects', () => {
  it('runs every browser-side file that mocks a module in the project with a module graph of its own', () => {
    const mocking = ['tests/unit', 'tests/views', 'model-tests']
      .flatMap(testFiles)
      .filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(root, file), 'utf8')))
      .sort();
    expect(mocking).toEqual([...mockingWebTests].sort());
  });
});
