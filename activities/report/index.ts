/** Activities of the report group (exported to the worker). */
export {};
