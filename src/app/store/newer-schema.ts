/** The refusal to open a database a newer Tandem migrated (both backends say it the same way). */
export function newerSchema(target: string, found: number, known: number): Error {
  return new Error(
    `${target} has schema version ${found}, newer than this Tandem's (${known}): upgrade Tandem or use another database (TANDEM_DATA_DIR or DATABASE_URL)`,
  );
}
