/** Requests answered with one status, of one operation (null: a request no operation matched). */
export interface CoverageCount {
  operationId: string | null;
  status: number;
  count: number;
}
