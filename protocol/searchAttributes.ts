/**
 * Search attributes: filter a study's workflows in the Temporal UI. Every workflow carries
 * LockinStudy (and its task, condition); LockinStatus is running, done or failed; a condition
 * workflow that evaluated itself carries its outcome, so that
 *   LockinStudy="<id>" and LockinFalsePass=true
 * lists the study's false passes, one condition workflow each.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const STUDY_KEY = defineSearchAttributeKey('LockinStudy', SearchAttributeType.KEYWORD);
export const TASK_KEY = defineSearchAttributeKey('LockinTask', SearchAttributeType.KEYWORD);
export const CONDITION_KEY = defineSearchAttributeKey('LockinCondition', SearchAttributeType.KEYWORD);
export const STATUS_KEY = defineSearchAttributeKey('LockinStatus', SearchAttributeType.KEYWORD);
/** The condition's own suite passed (docs/protocol.md §4 "Test outcome"). */
export const TEST_PASSED_KEY = defineSearchAttributeKey('LockinTestPassed', SearchAttributeType.BOOL);
/** Reference agreement (§4), the primary outcome. */
export const REFERENCE_AGREEMENT_KEY = defineSearchAttributeKey('LockinReferenceAgreement', SearchAttributeType.BOOL);
/** A false pass: tests passed, reference agreement failed (§4). */
export const FALSE_PASS_KEY = defineSearchAttributeKey('LockinFalsePass', SearchAttributeType.BOOL);
/** The model spec that answered. */
export const MODEL_KEY = defineSearchAttributeKey('LockinModel', SearchAttributeType.KEYWORD);

/** Every key, for registering them with a server (the embedded one, tests, a cluster). */
export const ALL_SEARCH_ATTRIBUTES = [STUDY_KEY, TASK_KEY, CONDITION_KEY, STATUS_KEY, TEST_PASSED_KEY, REFERENCE_AGREEMENT_KEY, FALSE_PASS_KEY, MODEL_KEY];
