// The names real deployments give a list's page size, in the order the suite tries them
// (paging.ts), and that coverage and the comparison of moving answers recognise in a query.
export const PAGE_SIZE_NAMES = ['perPage', 'per_page', 'limit', 'pageSize', 'page_size', 'size'] as const;
