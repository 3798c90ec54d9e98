/**
 * The CLI loads a command group's module only when that group runs (client/cli.ts). Every
 * module but compare is mocked to throw when loaded, so building the tree for `--help` or for
 * `compare` fails if it touches any other.
 */
const mockLoaded: string[] = [];
function mockTrap(name: string): never {
  mockLoaded.push(name);
  throw new Error(`client/commands/${name} was loaded`);
}
jest.mock('../../client/commands/doctor', () => mockTrap('doctor'));
jest.mock('../../client/commands/server', () => mockTrap('server'));
jest.mock('../../client/commands/worker', () => mockTrap('worker'));
jest.mock('../../client/commands/data', () => mockTrap('data'));
jest.mock('../../client/commands/controls', () => mockTrap('controls'));
jest.mock('../../client/commands/tasks', () => mockTrap('tasks'));
jest.mock('../../client/commands/gold', () => mockTrap('gold'));
jest.mock('../../client/commands/study', () => mockTrap('study'));
jest.mock('../../client/commands/report', () => mockTrap('report'));
jest.mock('../../client/commands/labels', () => mockTrap('labels'));

import { buildProgram, COMMANDS, main, requestedCommand } from '../../client/cli';

describe('lazy CLI', () => {
  test('requestedCommand: the first word, or the word after help; none for top-level help or an unknown name', () => {
    expect(requestedCommand(['compare', 'a', 'b', '--keys', 'k'])?.name).toBe('compare');
    expect(requestedCommand(['help', 'study'])?.name).toBe('study');
    expect(requestedCommand(['--help'])).toBeUndefined();
    expect(requestedCommand(['nosuch'])).toBeUndefined();
    expect(requestedCommand([])).toBeUndefined();
  });

  test('the top-level tree names and describes every group without loading a module', async () => {
    const program = await buildProgram();
    expect(program.commands.map((c) => c.name())).toEqual(COMMANDS.map((c) => c.name));
    expect(program.helpInformation()).toContain('Compare a candidate output with a reference');
    expect(mockLoaded).toEqual([]);
  });

  test('running compare defines compare only (its arguments and options come from its module)', async () => {
    const program = await buildProgram([requestedCommand(['compare'])!]);
    const compare = program.commands.find((c) => c.name() === 'compare')!;
    expect(compare.options.map((o) => o.long)).toEqual(expect.arrayContaining(['--keys', '--atol', '--rtol', '--json']));
    expect(mockLoaded).toEqual([]);
    await expect(buildProgram([requestedCommand(['study'])!])).rejects.toThrow('client/commands/study was loaded');
  });
  test('an unknown command is an error, with --help too (exit code 1), and loads nothing', async () => {
    const before = mockLoaded.length;
    for (const args of [['nosuch', '--help'], ['nosuch']]) {
      await expect(main(['node', 'lockin', ...args])).rejects.toMatchObject({ exitCode: 1, message: expect.stringMatching(/^unknown command 'nosuch' \(commands: doctor, server, /) });
    }
    expect(mockLoaded.length).toBe(before);
  });
  test('an unknown command of a group is an error too, with --help (exit code 1), naming the group\'s commands', async () => {
    for (const args of [['obligations', 'frob', '--help'], ['obligations', 'frob']]) {
      await expect(main(['node', 'lockin', ...args])).rejects.toMatchObject({ exitCode: 1, message: expect.stringMatching(/^unknown command 'obligations frob' \(commands of obligations: diff, apply, calibrate, check;/) });
    }
  });
});
