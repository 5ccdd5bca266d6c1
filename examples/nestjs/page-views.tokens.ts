/**
 * Injection token of the page-view `Repository` of the table the feature
 * module was registered with (an alias of `getRepositoryToken(entity)`).
 *
 * @example
 * ```ts
 * constructor(@Inject(PAGE_VIEWS) private readonly views: Repository<PageView>) {}
 * ```
 */
export const PAGE_VIEWS: unique symbol = Symbol('PAGE_VIEWS');
