/**
 * Every activity lockin registers, grouped by what it touches. Workflows import this module
 * as a type only (`import type * as activities from '../worker/activities'`).
 */
export * from '../activities/model';
export * from '../activities/store';
export * from '../activities/preflight';
export * from '../activities/execution';
export * from '../activities/compare';
export * from '../activities/scoring';
export * from '../activities/report';
export * from '../activities/data';
export * from '../activities/tasks';
export * from '../activities/mutation';
