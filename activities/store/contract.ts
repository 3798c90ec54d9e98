/**
 * The frozen contract suite of Contract-First (docs/protocol.md §2 "Contract-First"): C-0 writes
 * `<dir>/contract_test.py`; `sealContract` freezes it (mode 0444) and keeps a sealed copy at
 * `<dir>/contract/contract_test.py`; `guardContract` runs before every pytest run and at freeze:
 * a changed suite (a revision that returned contract_test.py) is a protocol violation, and the
 * sealed copy is put back.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApplicationFailure } from '@temporalio/common';
import { CONTRACT_SUITE } from '../../protocol/conditions';
import { sha256File } from '../common/hash';
import type { ActivityInput, ActivityOutput } from '../../protocol/activities';

/** The sealed copy of a condition directory's contract suite. */
export function sealedContractPath(dir: string): string {
  return path.join(dir, 'contract', CONTRACT_SUITE);
}

/**
 * Activity: freezes the contract suite C-0 wrote into `dir`.
 * @returns its sha256, or null when C-0 wrote none (its reply broke the protocol).
 */
export async function sealContract(req: ActivityInput<'sealContract'>): Promise<ActivityOutput<'sealContract'>> {
  const file = path.join(req.dir, CONTRACT_SUITE);
  if (!fs.existsSync(file)) return { sha256: null };
  const sealed = sealedContractPath(req.dir);
  fs.mkdirSync(path.dirname(sealed), { recursive: true });
  if (fs.existsSync(sealed)) fs.rmSync(sealed, { force: true });
  fs.copyFileSync(file, sealed);
  fs.chmodSync(sealed, 0o444);
  fs.chmodSync(file, 0o444);
  return { sha256: sha256File(file) };
}

/**
 * Activity: checks that `<dir>/contract_test.py` still has the sha256 sealed at C-0; if not
 * (changed or deleted), restores the sealed copy.
 * @returns intact; foundSha256, the hash found ("missing" for a deleted suite); restoredSha256,
 *   the hash of the file as left (always the sealed one).
 * @throws ApplicationFailure.nonRetryable ('ContractSealBroken') when the sealed copy itself is
 *   missing or differs from `sha256`: nothing trustworthy is left to restore.
 */
export async function guardContract(req: ActivityInput<'guardContract'>): Promise<ActivityOutput<'guardContract'>> {
  const file = path.join(req.dir, CONTRACT_SUITE);
  const found = fs.existsSync(file) ? sha256File(file) : 'missing';
  if (found === req.sha256) return { intact: true, foundSha256: found, restoredSha256: found };
  const sealed = sealedContractPath(req.dir);
  if (!fs.existsSync(sealed) || sha256File(sealed) !== req.sha256) {
    throw ApplicationFailure.nonRetryable(`${sealed}: the sealed contract suite is missing or is not the one C-0 wrote (sha256 ${req.sha256})`, 'ContractSealBroken');
  }
  fs.rmSync(file, { force: true });
  fs.copyFileSync(sealed, file);
  fs.chmodSync(file, 0o444);
  return { intact: false, foundSha256: found, restoredSha256: sha256File(file) };
}
