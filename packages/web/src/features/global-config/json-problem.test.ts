import { describe, expect, it } from 'vitest';
import { jsonProblem, jsonProblemText, lineColumnAt } from './json-problem.js';

describe('jsonProblem: a broken upload named by line and column', () => {
  it('turns the parser position into the line and column of the mistake', () => {
    const text = '{\n  "http": [80],\n  "rtmp" 1935\n}\n';
    const problem = jsonProblem(text);
    expect(problem).toMatchObject({ line: 3, column: 10 });
    expect(problem?.reason).not.toMatch(/position/);
    expect(jsonProblemText('cfg.json', problem!)).toMatch(
      /^cfg\.json is not valid JSON: line 3, column 10: /,
    );
  });

  it('puts a file that ends too soon at its end', () => {
    expect(jsonProblem('{\n  "http": [80],\n')).toMatchObject({ line: 3, column: 1 });
  });

  it('says nothing of good JSON', () => {
    expect(jsonProblem('{"http": [80]}')).toBeUndefined();
  });

  it('counts columns from 1 on each line', () => {
    expect(lineColumnAt('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumnAt('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
