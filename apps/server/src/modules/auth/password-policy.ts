import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as ptBr from '@zxcvbn-ts/language-pt-br';
import { hashPassword } from '../../db/passwords.js';
import { AppError } from '../../http/errors.js';

/**
 * A password an attacker's guesser (zxcvbn: the common-password lists, Portuguese words and
 * names, keyboard walks, repeats, sequences, dates, l33t) finds within about 30,000 guesses
 * is refused: "123456", "senha123", "qwerty", "secret1", "aaaaa". Five random characters still
 * pass, so the spec's 5–50 length keeps its meaning.
 */
const MIN_GUESSES_LOG10 = 4.5;

let estimator: ZxcvbnFactory | undefined;
// Built on first use: loading the dictionaries takes about half a second.
const strength = () =>
  (estimator ??= new ZxcvbnFactory({ dictionary: { ...common.dictionary, ...ptBr.dictionary }, graphs: common.adjacencyGraphs }));

export function isCommonPassword(password: string): boolean {
  return strength().check(password).guessesLog10 < MIN_GUESSES_LOG10;
}

/** A password a person chose (signup, user and company forms): 400 ERR_COMMON_PASSWORD when common, else its hash. */
export async function hashChosenPassword(password: string): Promise<string> {
  if (isCommonPassword(password)) throw new AppError('ERR_COMMON_PASSWORD', 400, 'choose a less common password');
  return hashPassword(password);
}
