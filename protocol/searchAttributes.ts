/** Search attributes that let a user filter one condition of one task in the Temporal UI. */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const STUDY_KEY = defineSearchAttributeKey('LockinStudy', SearchAttributeType.KEYWORD);
export const TASK_KEY = defineSearchAttributeKey('LockinTask', SearchAttributeType.KEYWORD);
export const CONDITION_KEY = defineSearchAttributeKey('LockinCondition', SearchAttributeType.KEYWORD);
export const STATUS_KEY = defineSearchAttributeKey('LockinStatus', SearchAttributeType.KEYWORD);
